//! # ecaz-derive — a small `Deserialize` derive for the core crate's types
//!
//! An implementation detail of the `ecaz` crate, published with it and
//! pinned exactly by it (D-210): the code it emits calls `ecaz`'s private
//! `codec::wire` module, so it works inside `ecaz` only.
//!
//! Why (D-150; the npm package's `.wasm` ≤ 250 KB gzip): serde's derived
//! `Deserialize` compiles visitors per type and per deserializer, and for an
//! internally tagged enum buffers the object into serde's private `Content`
//! and re-visits it with one visitor per variant; in the WASM module that was
//! most of the code. `#[derive(WireDeserialize)]` reads the same
//! `#[serde(...)]` attributes as serde's derive (so the wire format and the
//! JSON Schemas keep one source) and emits a `Deserialize` impl over the
//! shared helpers of the core crate's `wire` module:
//!
//! * a unit-only enum (`rename_all` only): `crate::codec::wire::unit_variant`, the
//!   same `deserialize_enum` protocol as serde's derive (same errors);
//! * an internally tagged enum (`tag`, `rename_all`, `rename_all_fields`,
//!   `deny_unknown_fields`; unit and struct variants) and a struct with named
//!   fields (`rename_all`, `deny_unknown_fields`, `default`): the object read
//!   once into `crate::codec::wire::Object` (the members the type reads kept as raw
//!   text, the others skipped), the tag looked up in one name table, then
//!   each field read from its member (field attributes: `default`, and
//!   the serialization-only `skip_serializing_if`).
//!
//! Any other serde attribute or shape is a compile error: the derive never
//! silently drops an attribute serde's derive would have honoured.

#![deny(missing_docs)]

use proc_macro::TokenStream;
use proc_macro2::TokenStream as Tokens;
use quote::quote;
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, LitStr};

/// Derives `serde::Deserialize` for a unit-only enum, an internally tagged
/// enum or a named-field struct of the core crate (see the crate documentation).
#[proc_macro_derive(WireDeserialize, attributes(serde))]
pub fn derive_wire_deserialize(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as DeriveInput);
    expand(&input).unwrap_or_else(syn::Error::into_compile_error).into()
}

/// serde's `rename_all` rules used by the core crate.
#[derive(Clone, Copy)]
enum Rule {
    Camel,
    Snake,
}

impl Rule {
    fn parse(lit: &LitStr) -> syn::Result<Rule> {
        match lit.value().as_str() {
            "camelCase" => Ok(Rule::Camel),
            "snake_case" => Ok(Rule::Snake),
            _ => Err(syn::Error::new(
                lit.span(),
                "WireDeserialize supports camelCase and snake_case only",
            )),
        }
    }

    /// A variant name (PascalCase in Rust), renamed as serde does.
    fn variant(self, name: &str) -> String {
        let mut out = String::new();
        for (i, c) in name.chars().enumerate() {
            match self {
                Rule::Camel if i == 0 => out.push(c.to_ascii_lowercase()),
                Rule::Snake if c.is_uppercase() => {
                    if i > 0 {
                        out.push('_');
                    }
                    out.push(c.to_ascii_lowercase());
                }
                _ => out.push(c),
            }
        }
        out
    }

    /// A field name (snake_case in Rust), renamed as serde does.
    fn field(self, name: &str) -> String {
        match self {
            Rule::Snake => name.to_string(),
            Rule::Camel => {
                let mut out = String::new();
                let mut upper = false;
                for c in name.chars() {
                    if c == '_' {
                        upper = !out.is_empty();
                    } else if upper {
                        out.push(c.to_ascii_uppercase());
                        upper = false;
                    } else {
                        out.push(c);
                    }
                }
                out
            }
        }
    }
}

/// The container attributes.
#[derive(Default)]
struct Container {
    tag: Option<String>,
    rename_all: Option<Rule>,
    rename_all_fields: Option<Rule>,
    deny_unknown_fields: bool,
    /// `#[serde(default)]` on a struct: a missing field is that field of `Default::default()`.
    default: bool,
}

fn container(input: &DeriveInput) -> syn::Result<Container> {
    let mut c = Container::default();
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("serde")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("tag") {
                c.tag = Some(meta.value()?.parse::<LitStr>()?.value());
            } else if meta.path.is_ident("rename_all") {
                c.rename_all = Some(Rule::parse(&meta.value()?.parse()?)?);
            } else if meta.path.is_ident("rename_all_fields") {
                c.rename_all_fields = Some(Rule::parse(&meta.value()?.parse()?)?);
            } else if meta.path.is_ident("deny_unknown_fields") {
                c.deny_unknown_fields = true;
            } else if meta.path.is_ident("default") && meta.input.is_empty() {
                c.default = true;
            } else {
                return Err(meta.error("this serde attribute is not supported by WireDeserialize"));
            }
            Ok(())
        })?;
    }
    Ok(c)
}

/// Rejects any `#[serde(...)]` on a variant (none is supported).
fn no_serde_attrs(attrs: &[syn::Attribute]) -> syn::Result<()> {
    match attrs.iter().find(|a| a.path().is_ident("serde")) {
        Some(a) => Err(syn::Error::new(
            a.span(),
            "WireDeserialize supports no serde attribute here",
        )),
        None => Ok(()),
    }
}

/// Does the field carry `#[serde(default)]`? (`default` and the
/// serialization-only `skip_serializing_if` are the field attributes supported.)
fn field_default(field: &syn::Field) -> syn::Result<bool> {
    let mut default = false;
    for attr in field.attrs.iter().filter(|a| a.path().is_ident("serde")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("default") && meta.input.is_empty() {
                default = true;
                Ok(())
            } else if meta.path.is_ident("skip_serializing_if") {
                meta.value()?.parse::<LitStr>().map(|_| ())
            } else {
                Err(meta.error("WireDeserialize supports only default and skip_serializing_if on a field"))
            }
        })?;
    }
    Ok(default)
}

/// Is the type spelled `Option<…>` (serde's derive reads a missing field of
/// such a type as `None`)?
fn is_option(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Path(p) => p.qself.is_none() && p.path.segments.last().is_some_and(|s| s.ident == "Option"),
        _ => false,
    }
}

/// The reads of a struct's (or a struct variant's) named fields from
/// `object` under `constructor` (`Name` or `Name::Variant`): `rule` renames
/// the fields; `fallback` (a struct's container `default`) is the value whose
/// fields stand in for missing ones.
fn build_fields(
    constructor: &Tokens,
    fields: &syn::FieldsNamed,
    rule: Option<Rule>,
    deny_unknown_fields: bool,
    fallback: Option<&Tokens>,
    known: &mut Vec<String>,
) -> syn::Result<Tokens> {
    let mut wires = Vec::new();
    let mut inits = Vec::new();
    for f in &fields.named {
        let Some(field) = &f.ident else {
            return Err(syn::Error::new(f.span(), "a named field without a name"));
        };
        let raw = field.unraw().to_string();
        let key = match rule {
            Some(rule) => rule.field(&raw),
            None => raw,
        };
        let read = match (field_default(f)?, fallback) {
            (true, _) => quote! { object.or_default(#key)? },
            (false, Some(base)) => quote! { object.or(#key, #base.#field)? },
            (false, None) if is_option(&f.ty) => quote! { object.optional(#key)? },
            (false, None) => quote! { object.required(#key)? },
        };
        inits.push(quote! { #field: #read });
        wires.push(key);
    }
    let deny = deny_unknown_fields.then(|| quote! { object.only(&[#(#wires),*])?; });
    known.extend(wires);
    Ok(quote! { { #deny #constructor { #(#inits),* } } })
}

/// The most member names one type reads (`crate::codec::wire::Object` marks the
/// members met in a 128-bit set).
const MAX_KNOWN: usize = 128;

/// The `Deserialize` impl that reads an object (serde's `invalid type` against
/// `expecting` otherwise) and builds the value with `body`; `known` is every
/// member name the type reads (its fields, of every variant, and its tag).
fn object_impl(name: &syn::Ident, expecting: &str, mut known: Vec<String>, body: &Tokens) -> syn::Result<Tokens> {
    // Sorted by length, then bytes (`crate::codec::wire::Object` binary-searches
    // it, comparing lengths first).
    known.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
    known.dedup();
    if known.len() > MAX_KNOWN {
        return Err(syn::Error::new(
            name.span(),
            "WireDeserialize reads at most 128 member names per type",
        ));
    }
    Ok(quote! {
        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                fn build(object: &mut crate::codec::wire::Object<'_>) -> ::core::result::Result<#name, ::serde_json::Error> {
                    #body
                }
                let mut object = crate::codec::wire::Object::read(deserializer, #expecting, &[#(#known),*])?;
                build(&mut object).map_err(<D::Error as ::serde::de::Error>::custom)
            }
        }
    })
}

fn expand(input: &DeriveInput) -> syn::Result<Tokens> {
    if !input.generics.params.is_empty() {
        return Err(syn::Error::new(
            input.generics.span(),
            "WireDeserialize derives non-generic types only",
        ));
    }
    let c = container(input)?;
    let name = &input.ident;
    let data = match &input.data {
        Data::Enum(data) if !c.default => data,
        Data::Struct(syn::DataStruct {
            fields: Fields::Named(fields),
            ..
        }) if c.tag.is_none() && c.rename_all_fields.is_none() => {
            let base = quote! { base };
            let mut known = Vec::new();
            let reads = build_fields(
                &quote! { #name },
                fields,
                c.rename_all,
                c.deny_unknown_fields,
                c.default.then_some(&base),
                &mut known,
            )?;
            let init = c
                .default
                .then(|| quote! { let base = <#name as ::core::default::Default>::default(); });
            return object_impl(name, &format!("struct {name}"), known, &quote! { #init Ok(#reads) });
        }
        _ => {
            return Err(syn::Error::new(
                input.span(),
                "WireDeserialize derives enums and named-field structs only",
            ));
        }
    };
    let rename = |v: &syn::Ident| match c.rename_all {
        Some(rule) => rule.variant(&v.unraw().to_string()),
        None => v.unraw().to_string(),
    };
    for v in &data.variants {
        no_serde_attrs(&v.attrs)?;
    }
    let names: Vec<String> = data.variants.iter().map(|v| rename(&v.ident)).collect();
    let Some(tag) = &c.tag else {
        // A unit-only enum.
        if c.rename_all_fields.is_some() || c.deny_unknown_fields {
            return Err(syn::Error::new(
                input.span(),
                "rename_all_fields/deny_unknown_fields need a tag",
            ));
        }
        if let Some(v) = data.variants.iter().find(|v| !matches!(v.fields, Fields::Unit)) {
            return Err(syn::Error::new(
                v.span(),
                "an untagged WireDeserialize enum must be unit-only",
            ));
        }
        let idents = data.variants.iter().map(|v| &v.ident);
        let type_name = name.to_string();
        return Ok(quote! {
            impl<'de> ::serde::Deserialize<'de> for #name {
                fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                    const ALL: &[#name] = &[#(#name::#idents),*];
                    let index = crate::codec::wire::unit_variant(deserializer, #type_name, &[#(#names),*])?;
                    crate::codec::wire::nth(ALL, index)
                }
            }
        });
    };
    // An internally tagged enum.
    let mut arms = Vec::new();
    let mut known = vec![tag.clone()];
    for v in &data.variants {
        let ident = &v.ident;
        arms.push(match &v.fields {
            // serde's derive ignores every other member of a unit variant's object.
            Fields::Unit => quote! { #name::#ident },
            Fields::Named(fields) => build_fields(
                &quote! { #name::#ident },
                fields,
                c.rename_all_fields,
                c.deny_unknown_fields,
                None,
                &mut known,
            )?,
            Fields::Unnamed(_) => {
                return Err(syn::Error::new(
                    v.span(),
                    "WireDeserialize supports unit and struct variants only",
                ));
            }
        });
    }
    let indices = 0..arms.len();
    let body = quote! {
        Ok(match object.variant(#tag, &[#(#names),*])? {
            #(#indices => #arms,)*
            _ => return Err(crate::codec::wire::no_variant()),
        })
    };
    object_impl(name, &format!("internally tagged enum {name}"), known, &body)
}
