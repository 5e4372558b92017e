//! # ecaz-derive — a small `Deserialize` derive for the core crate's enums
//!
//! Issue 12 item 5 (the npm package's `.wasm` ≤ 250 KB gzip): serde's derived
//! `Deserialize` of an internally tagged enum buffers the object into serde's
//! private `Content` and re-visits it with one visitor per variant, and a
//! unit-only enum gets its own identifier visitor per deserializer. In the
//! WASM module that was most of the code. `#[derive(WireDeserialize)]` reads
//! the same `#[serde(...)]` attributes as serde's derive (so the wire format
//! and the JSON Schemas keep one source) and emits a `Deserialize` impl over
//! the shared, non-generic helpers of the core crate's `wire` module:
//!
//! * a unit-only enum (`rename_all` only): `crate::wire::unit_variant`, the
//!   same `deserialize_enum` protocol as serde's derive (same errors);
//! * an internally tagged enum (`tag`, `rename_all`, `rename_all_fields`,
//!   `deny_unknown_fields`; unit and struct variants; field attribute
//!   `default` only): the object read once into `crate::wire::Tagged`, the
//!   tag looked up in one name table, then each field deserialized from its
//!   JSON value.
//!
//! Any other serde attribute or shape is a compile error: the derive never
//! silently drops an attribute serde's derive would have honoured.

use proc_macro::TokenStream;
use proc_macro2::TokenStream as Tokens;
use quote::quote;
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, LitStr};

/// Derives `serde::Deserialize` for a unit-only or an internally tagged enum
/// of the core crate (see the crate documentation).
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

/// Does the field carry `#[serde(default)]` (the only field attribute supported)?
fn field_default(field: &syn::Field) -> syn::Result<bool> {
    let mut default = false;
    for attr in field.attrs.iter().filter(|a| a.path().is_ident("serde")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("default") && meta.input.is_empty() {
                default = true;
                Ok(())
            } else {
                Err(meta.error("WireDeserialize supports only #[serde(default)] on a field"))
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

fn expand(input: &DeriveInput) -> syn::Result<Tokens> {
    let Data::Enum(data) = &input.data else {
        return Err(syn::Error::new(input.span(), "WireDeserialize derives enums only"));
    };
    if !input.generics.params.is_empty() {
        return Err(syn::Error::new(
            input.generics.span(),
            "WireDeserialize derives non-generic enums only",
        ));
    }
    let c = container(input)?;
    let name = &input.ident;
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
                    let index = crate::wire::unit_variant(deserializer, #type_name, &[#(#names),*])?;
                    crate::wire::nth(ALL, index)
                }
            }
        });
    };
    // An internally tagged enum.
    let mut arms = Vec::new();
    for v in &data.variants {
        let ident = &v.ident;
        let arm = match &v.fields {
            // serde's derive ignores every other member of a unit variant's object.
            Fields::Unit => quote! { #name::#ident },
            Fields::Named(fields) => {
                let mut wires = Vec::new();
                let mut inits = Vec::new();
                for f in &fields.named {
                    let Some(field) = &f.ident else {
                        return Err(syn::Error::new(f.span(), "a named field without a name"));
                    };
                    let raw = field.unraw().to_string();
                    let key = match c.rename_all_fields {
                        Some(rule) => rule.field(&raw),
                        None => raw,
                    };
                    let take = if field_default(f)? {
                        quote! { or_default }
                    } else if is_option(&f.ty) {
                        quote! { optional }
                    } else {
                        quote! { required }
                    };
                    inits.push(quote! { #field: object.#take(#key)? });
                    wires.push(key);
                }
                let deny = c.deny_unknown_fields.then(|| quote! { object.only(&[#(#wires),*])?; });
                quote! { { #deny #name::#ident { #(#inits),* } } }
            }
            Fields::Unnamed(_) => {
                return Err(syn::Error::new(
                    v.span(),
                    "WireDeserialize supports unit and struct variants only",
                ));
            }
        };
        arms.push(arm);
    }
    let indices = 0..arms.len();
    let expecting = format!("internally tagged enum {name}");
    Ok(quote! {
        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                fn build(object: &mut crate::wire::Tagged) -> ::core::result::Result<#name, ::serde_json::Error> {
                    Ok(match object.variant(#tag, &[#(#names),*])? {
                        #(#indices => #arms,)*
                        _ => return Err(crate::wire::no_variant()),
                    })
                }
                let mut object = crate::wire::Tagged::read(deserializer, #expecting)?;
                build(&mut object).map_err(<D::Error as ::serde::de::Error>::custom)
            }
        }
    })
}
