//! Identifiers shared by the whole engine: factions, Ambassador tokens,
//! territories, leaders, phases and opaque numeric ids.
//!
//! Every enum here serialises to the wire ids fixed by RULES §1 (factions,
//! Ambassadors, phases) and `shared/board.md` (territories, leaders), so the
//! engine and the TypeScript front end exchange values without translation.

use std::fmt;

use ecaz_derive::WireDeserialize;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A sector of the board (RULES §8).
///
/// `1..=18` are the ring sectors the storm crosses, numbered as in the front
/// end (18 → 1 wraps). `0` is reserved for the Polar Sink and the Hidden
/// Mobile Stronghold interior, which are never in the storm.
pub type Sector = u8;

/// One of the twelve factions (RULES §1). Wire ids are camelCase
/// (`atreides`, `beneGesserit`, `choam`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum Faction {
    /// House Atreides.
    Atreides,
    /// House Harkonnen.
    Harkonnen,
    /// The Emperor (elite forces: Sardaukar).
    Emperor,
    /// The Fremen (elite forces: Fedaykin).
    Fremen,
    /// The Spacing Guild.
    Guild,
    /// The Bene Gesserit (forces are fighters or advisors).
    BeneGesserit,
    /// The Ixians (elite forces: Cyborgs).
    Ixians,
    /// The Bene Tleilaxu.
    Tleilaxu,
    /// CHOAM.
    Choam,
    /// House Richese.
    Richese,
    /// House Ecaz.
    Ecaz,
    /// House Moritani.
    Moritani,
}

impl Faction {
    /// All twelve factions in RULES §1 order.
    pub const ALL: [Faction; 12] = [
        Faction::Atreides,
        Faction::Harkonnen,
        Faction::Emperor,
        Faction::Fremen,
        Faction::Guild,
        Faction::BeneGesserit,
        Faction::Ixians,
        Faction::Tleilaxu,
        Faction::Choam,
        Faction::Richese,
        Faction::Ecaz,
        Faction::Moritani,
    ];

    /// Position of this faction in [`Faction::ALL`] (`0..12`).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The wire id (RULES §1), identical to the serde representation.
    pub const fn id(self) -> &'static str {
        match self {
            Faction::Atreides => "atreides",
            Faction::Harkonnen => "harkonnen",
            Faction::Emperor => "emperor",
            Faction::Fremen => "fremen",
            Faction::Guild => "guild",
            Faction::BeneGesserit => "beneGesserit",
            Faction::Ixians => "ixians",
            Faction::Tleilaxu => "tleilaxu",
            Faction::Choam => "choam",
            Faction::Richese => "richese",
            Faction::Ecaz => "ecaz",
            Faction::Moritani => "moritani",
        }
    }

    /// The faction whose wire id is `id`.
    pub(crate) fn from_id(id: &str) -> Option<Faction> {
        Faction::ALL.into_iter().find(|f| f.id() == id)
    }

    /// Human-readable display name.
    pub fn name(self) -> &'static str {
        match self {
            Faction::Atreides => "Atreides",
            Faction::Harkonnen => "Harkonnen",
            Faction::Emperor => "Emperor",
            Faction::Fremen => "Fremen",
            Faction::Guild => "Spacing Guild",
            Faction::BeneGesserit => "Bene Gesserit",
            Faction::Ixians => "Ixians",
            Faction::Tleilaxu => "Tleilaxu",
            Faction::Choam => "CHOAM",
            Faction::Richese => "Richese",
            Faction::Ecaz => "Ecaz",
            Faction::Moritani => "Moritani",
        }
    }

    /// The faction's five leaders in `board.md` §Factions order.
    ///
    /// Duke Vidal is never included (RULES R-DUKE-1).
    pub fn leaders(self) -> [Leader; 5] {
        match self {
            Faction::Atreides => [
                Leader::ThufirHawat,
                Leader::LadyJessica,
                Leader::GurneyHalleck,
                Leader::DuncanIdaho,
                Leader::DrWellingtonYueh,
            ],
            Faction::Harkonnen => [
                Leader::FeydRautha,
                Leader::BeastRabban,
                Leader::PiterDeVries,
                Leader::CaptainIakinNefud,
                Leader::UmmanKudu,
            ],
            Faction::Emperor => [
                Leader::HasimirFenring,
                Leader::CaptainAramsham,
                Leader::Caid,
                Leader::Burseg,
                Leader::Bashar,
            ],
            Faction::Fremen => [
                Leader::Stilgar,
                Leader::Chani,
                Leader::Otheym,
                Leader::ShadoutMapes,
                Leader::Jamis,
            ],
            Faction::Guild => [
                Leader::StabanTuek,
                Leader::MasterBewt,
                Leader::EsmarTuek,
                Leader::SooSooSook,
                Leader::GuildRepresentative,
            ],
            Faction::BeneGesserit => [
                Leader::Alia,
                Leader::WannaMarcus,
                Leader::PrincessIrulan,
                Leader::ReverendMotherRamallo,
                Leader::MargotLadyFenring,
            ],
            Faction::Ixians => [
                Leader::CTairPilru,
                Leader::TessiaVernius,
                Leader::DominicVernius,
                Leader::KaileaVernius,
                Leader::CammarPilru,
            ],
            Faction::Tleilaxu => [
                Leader::HidarFenAjidica,
                Leader::MasterZaaf,
                Leader::Wykk,
                Leader::Blin,
                Leader::Zoal,
            ],
            Faction::Choam => [
                Leader::FrankosAru,
                Leader::LadyJalma,
                Leader::RajivLondine,
                Leader::DukeVerdun,
                Leader::ViscountTull,
            ],
            Faction::Richese => [
                Leader::EinCalimar,
                Leader::LadyHelena,
                Leader::FlintoKinnis,
                Leader::HaloaRund,
                Leader::TalisBalt,
            ],
            Faction::Ecaz => [
                Leader::SanyaEcaz,
                Leader::WhitmoreBludd,
                Leader::IlesaEcaz,
                Leader::RivvyDinari,
                Leader::BindikkNarvi,
            ],
            Faction::Moritani => [
                Leader::LupinoOrd,
                Leader::GrieuKronos,
                Leader::HiihResser,
                Leader::TrinKronos,
                Leader::VandoTerboli,
            ],
        }
    }

    /// Name of the faction's elite ("starred") forces, if it has any
    /// (`board.md` §Factions): Sardaukar, Fedaykin or Cyborgs.
    pub fn elite_name(self) -> Option<&'static str> {
        match self {
            Faction::Emperor => Some("Sardaukar"),
            Faction::Fremen => Some("Fedaykin"),
            Faction::Ixians => Some("Cyborgs"),
            _ => None,
        }
    }

    /// Whether the faction has elite forces (Emperor, Fremen, Ixians).
    pub fn has_elite(self) -> bool {
        self.elite_name().is_some()
    }
}

impl fmt::Display for Faction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// The schema of a string that is a faction id or one of `extra` (the
/// wire form of `Actor` and `Viewer`).
pub(crate) fn faction_id_schema(name: &str, description: &str, extra: &[&str]) -> schemars::Schema {
    let mut values: Vec<serde_json::Value> = extra.iter().map(|s| serde_json::Value::from(*s)).collect();
    values.extend(Faction::ALL.iter().map(|f| serde_json::Value::from(f.id())));
    schemars::json_schema!({
        "title": name,
        "description": description,
        "type": "string",
        "enum": values,
    })
}

/// One of the eleven Ambassador token identities (RULES §1, E3 p.4).
/// There is no Moritani Ambassador.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum Ambassador {
    /// The Ecaz Ambassador (always in Ecaz's supply, RULES R-INV-1).
    Ecaz,
    /// The Atreides Ambassador.
    Atreides,
    /// The Bene Gesserit Ambassador.
    BeneGesserit,
    /// The CHOAM Ambassador.
    Choam,
    /// The Emperor Ambassador.
    Emperor,
    /// The Fremen Ambassador.
    Fremen,
    /// The Harkonnen Ambassador.
    Harkonnen,
    /// The Ixians Ambassador.
    Ixians,
    /// The Richese Ambassador.
    Richese,
    /// The Spacing Guild Ambassador.
    Guild,
    /// The Tleilaxu Ambassador.
    Tleilaxu,
}

impl Ambassador {
    /// All eleven tokens in RULES §1 order, Ecaz first.
    pub const ALL: [Ambassador; 11] = [
        Ambassador::Ecaz,
        Ambassador::Atreides,
        Ambassador::BeneGesserit,
        Ambassador::Choam,
        Ambassador::Emperor,
        Ambassador::Fremen,
        Ambassador::Harkonnen,
        Ambassador::Ixians,
        Ambassador::Richese,
        Ambassador::Guild,
        Ambassador::Tleilaxu,
    ];

    /// The ten non-Ecaz tokens, from which the setup draw is made
    /// (RULES R-INV-1).
    pub const NON_ECAZ: [Ambassador; 10] = [
        Ambassador::Atreides,
        Ambassador::BeneGesserit,
        Ambassador::Choam,
        Ambassador::Emperor,
        Ambassador::Fremen,
        Ambassador::Harkonnen,
        Ambassador::Ixians,
        Ambassador::Richese,
        Ambassador::Guild,
        Ambassador::Tleilaxu,
    ];

    /// Position of this token in [`Ambassador::ALL`] (`0..11`).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The faction whose identity this token carries.
    pub const fn faction(self) -> Faction {
        match self {
            Ambassador::Ecaz => Faction::Ecaz,
            Ambassador::Atreides => Faction::Atreides,
            Ambassador::BeneGesserit => Faction::BeneGesserit,
            Ambassador::Choam => Faction::Choam,
            Ambassador::Emperor => Faction::Emperor,
            Ambassador::Fremen => Faction::Fremen,
            Ambassador::Harkonnen => Faction::Harkonnen,
            Ambassador::Ixians => Faction::Ixians,
            Ambassador::Richese => Faction::Richese,
            Ambassador::Guild => Faction::Guild,
            Ambassador::Tleilaxu => Faction::Tleilaxu,
        }
    }

    /// The wire id (RULES §1), the same as the matching faction's id.
    pub const fn id(self) -> &'static str {
        self.faction().id()
    }
}

impl fmt::Display for Ambassador {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A territory of the board (RULES §8, `board.md` §Territories): the 42
/// printed territories plus the Hidden Mobile Stronghold. Wire ids are the
/// snake_case `id` column of `board.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Territory {
    /// Polar Sink (sector 0).
    PolarSink,
    /// Arrakeen (sector 10).
    Arrakeen,
    /// Carthag (sector 11).
    Carthag,
    /// Sietch Tabr (sector 14).
    SietchTabr,
    /// Habbanya (Ridge) Sietch (sector 17).
    HabbanyaRidgeSietch,
    /// Tuek's Sietch (sector 5).
    TueksSietch,
    /// Hidden Mobile Stronghold (sector 0).
    HiddenMobileStronghold,
    /// Imperial Basin (sectors 9,10,11).
    ImperialBasin,
    /// Shield Wall (sectors 8,9).
    ShieldWall,
    /// Rim Wall West (sector 9).
    RimWallWest,
    /// False Wall East (sectors 5,6,7,8,9).
    FalseWallEast,
    /// False Wall South (sectors 4,5).
    FalseWallSouth,
    /// False Wall West (sectors 16,17,18).
    FalseWallWest,
    /// Pasty Mesa (sectors 5,6,7,8).
    PastyMesa,
    /// Plastic Basin (sectors 12,13,14).
    PlasticBasin,
    /// Harg Pass (sectors 4,5).
    HargPass,
    /// Hole in the Rock (sector 9).
    HoleInTheRock,
    /// Sihaya Ridge (sector 9).
    SihayaRidge,
    /// Basin (sector 9).
    Basin,
    /// Gara Kulon (sector 8).
    GaraKulon,
    /// OH Gap (sectors 9,10,11).
    OhGap,
    /// Broken Land (sectors 11,12).
    BrokenLand,
    /// Tsimpo (sectors 11,12,13).
    Tsimpo,
    /// Arsunt (sectors 11,12).
    Arsunt,
    /// Hagga Basin (sectors 12,13).
    HaggaBasin,
    /// Rock Outcroppings (sectors 13,14).
    RockOutcroppings,
    /// Bight of the Cliff (sectors 14,15).
    BightOfTheCliff,
    /// Funeral Plain (sector 15).
    FuneralPlain,
    /// The Great Flat (sector 15).
    TheGreatFlat,
    /// The Greater Flat (sector 16).
    TheGreaterFlat,
    /// Habbanya Erg (sectors 16,17).
    HabbanyaErg,
    /// Habbanya Ridge Flat (sectors 17,18).
    HabbanyaRidgeFlat,
    /// Wind Pass (sectors 14,15,16,17).
    WindPass,
    /// Wind Pass North (sectors 17,18).
    WindPassNorth,
    /// Cielago West (sectors 18,1).
    CielagoWest,
    /// Cielago North (sectors 1,2,3).
    CielagoNorth,
    /// Cielago Depression (sectors 1,2,3).
    CielagoDepression,
    /// Meridian (sectors 1,2).
    Meridian,
    /// Cielago South (sectors 2,3).
    CielagoSouth,
    /// Cielago East (sectors 3,4).
    CielagoEast,
    /// South Mesa (sectors 4,5,6).
    SouthMesa,
    /// Red Chasm (sector 7).
    RedChasm,
    /// The Minor Erg (sectors 5,6,7,8).
    TheMinorErg,
}

impl Territory {
    /// All 43 territories in `board.md` table order.
    pub const ALL: [Territory; 43] = [
        Territory::PolarSink,
        Territory::Arrakeen,
        Territory::Carthag,
        Territory::SietchTabr,
        Territory::HabbanyaRidgeSietch,
        Territory::TueksSietch,
        Territory::HiddenMobileStronghold,
        Territory::ImperialBasin,
        Territory::ShieldWall,
        Territory::RimWallWest,
        Territory::FalseWallEast,
        Territory::FalseWallSouth,
        Territory::FalseWallWest,
        Territory::PastyMesa,
        Territory::PlasticBasin,
        Territory::HargPass,
        Territory::HoleInTheRock,
        Territory::SihayaRidge,
        Territory::Basin,
        Territory::GaraKulon,
        Territory::OhGap,
        Territory::BrokenLand,
        Territory::Tsimpo,
        Territory::Arsunt,
        Territory::HaggaBasin,
        Territory::RockOutcroppings,
        Territory::BightOfTheCliff,
        Territory::FuneralPlain,
        Territory::TheGreatFlat,
        Territory::TheGreaterFlat,
        Territory::HabbanyaErg,
        Territory::HabbanyaRidgeFlat,
        Territory::WindPass,
        Territory::WindPassNorth,
        Territory::CielagoWest,
        Territory::CielagoNorth,
        Territory::CielagoDepression,
        Territory::Meridian,
        Territory::CielagoSouth,
        Territory::CielagoEast,
        Territory::SouthMesa,
        Territory::RedChasm,
        Territory::TheMinorErg,
    ];

    /// Position of this territory in [`Territory::ALL`] (`0..43`).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The wire id (`board.md` `id` column), identical to the serde
    /// representation.
    pub fn id(self) -> &'static str {
        match self {
            Territory::PolarSink => "polar_sink",
            Territory::Arrakeen => "arrakeen",
            Territory::Carthag => "carthag",
            Territory::SietchTabr => "sietch_tabr",
            Territory::HabbanyaRidgeSietch => "habbanya_ridge_sietch",
            Territory::TueksSietch => "tueks_sietch",
            Territory::HiddenMobileStronghold => "hidden_mobile_stronghold",
            Territory::ImperialBasin => "imperial_basin",
            Territory::ShieldWall => "shield_wall",
            Territory::RimWallWest => "rim_wall_west",
            Territory::FalseWallEast => "false_wall_east",
            Territory::FalseWallSouth => "false_wall_south",
            Territory::FalseWallWest => "false_wall_west",
            Territory::PastyMesa => "pasty_mesa",
            Territory::PlasticBasin => "plastic_basin",
            Territory::HargPass => "harg_pass",
            Territory::HoleInTheRock => "hole_in_the_rock",
            Territory::SihayaRidge => "sihaya_ridge",
            Territory::Basin => "basin",
            Territory::GaraKulon => "gara_kulon",
            Territory::OhGap => "oh_gap",
            Territory::BrokenLand => "broken_land",
            Territory::Tsimpo => "tsimpo",
            Territory::Arsunt => "arsunt",
            Territory::HaggaBasin => "hagga_basin",
            Territory::RockOutcroppings => "rock_outcroppings",
            Territory::BightOfTheCliff => "bight_of_the_cliff",
            Territory::FuneralPlain => "funeral_plain",
            Territory::TheGreatFlat => "the_great_flat",
            Territory::TheGreaterFlat => "the_greater_flat",
            Territory::HabbanyaErg => "habbanya_erg",
            Territory::HabbanyaRidgeFlat => "habbanya_ridge_flat",
            Territory::WindPass => "wind_pass",
            Territory::WindPassNorth => "wind_pass_north",
            Territory::CielagoWest => "cielago_west",
            Territory::CielagoNorth => "cielago_north",
            Territory::CielagoDepression => "cielago_depression",
            Territory::Meridian => "meridian",
            Territory::CielagoSouth => "cielago_south",
            Territory::CielagoEast => "cielago_east",
            Territory::SouthMesa => "south_mesa",
            Territory::RedChasm => "red_chasm",
            Territory::TheMinorErg => "the_minor_erg",
        }
    }
}

impl fmt::Display for Territory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// One of the 60 faction leaders (`board.md` §Factions), five per faction.
///
/// Duke Vidal is deliberately not a variant: he is outside every roster and
/// has no Traitor card (RULES R-DUKE-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Leader {
    /// Thufir Hawat (Atreides, strength 5).
    ThufirHawat,
    /// Lady Jessica (Atreides, strength 5).
    LadyJessica,
    /// Gurney Halleck (Atreides, strength 4).
    GurneyHalleck,
    /// Duncan Idaho (Atreides, strength 2).
    DuncanIdaho,
    /// Dr. Wellington Yueh (Atreides, strength 1).
    DrWellingtonYueh,
    /// Feyd-Rautha (Harkonnen, strength 6).
    FeydRautha,
    /// Beast Rabban (Harkonnen, strength 4).
    BeastRabban,
    /// Piter de Vries (Harkonnen, strength 3).
    PiterDeVries,
    /// Captain Iakin Nefud (Harkonnen, strength 2).
    CaptainIakinNefud,
    /// Umman Kudu (Harkonnen, strength 1).
    UmmanKudu,
    /// Hasimir Fenring (Emperor, strength 6).
    HasimirFenring,
    /// Captain Aramsham (Emperor, strength 5).
    CaptainAramsham,
    /// Caid (Emperor, strength 3).
    Caid,
    /// Burseg (Emperor, strength 3).
    Burseg,
    /// Bashar (Emperor, strength 2).
    Bashar,
    /// Stilgar (Fremen, strength 7).
    Stilgar,
    /// Chani (Fremen, strength 6).
    Chani,
    /// Otheym (Fremen, strength 5).
    Otheym,
    /// Shadout Mapes (Fremen, strength 3).
    ShadoutMapes,
    /// Jamis (Fremen, strength 2).
    Jamis,
    /// Staban Tuek (Guild, strength 5).
    StabanTuek,
    /// Master Bewt (Guild, strength 3).
    MasterBewt,
    /// Esmar Tuek (Guild, strength 3).
    EsmarTuek,
    /// Soo-Soo Sook (Guild, strength 2).
    SooSooSook,
    /// Guild Representative (Guild, strength 1).
    GuildRepresentative,
    /// Alia (BeneGesserit, strength 5).
    Alia,
    /// Wanna Marcus (BeneGesserit, strength 5).
    WannaMarcus,
    /// Princess Irulan (BeneGesserit, strength 5).
    PrincessIrulan,
    /// Reverend Mother Ramallo (BeneGesserit, strength 5).
    ReverendMotherRamallo,
    /// Margot Lady Fenring (BeneGesserit, strength 5).
    MargotLadyFenring,
    /// C'tair Pilru (Ixians, strength 5).
    CTairPilru,
    /// Tessia Vernius (Ixians, strength 5).
    TessiaVernius,
    /// Dominic Vernius (Ixians, strength 4).
    DominicVernius,
    /// Kailea Vernius (Ixians, strength 2).
    KaileaVernius,
    /// Cammar Pilru (Ixians, strength 1).
    CammarPilru,
    /// Hidar Fen Ajidica (Tleilaxu, strength 4).
    HidarFenAjidica,
    /// Master Zaaf (Tleilaxu, strength 3).
    MasterZaaf,
    /// Wykk (Tleilaxu, strength 2).
    Wykk,
    /// Blin (Tleilaxu, strength 1).
    Blin,
    /// Zoal (Tleilaxu, strength variable).
    Zoal,
    /// Frankos Aru (Choam, strength 4).
    FrankosAru,
    /// Lady Jalma (Choam, strength 4).
    LadyJalma,
    /// Rajiv Londine (Choam, strength 3).
    RajivLondine,
    /// Duke Verdun (Choam, strength 3).
    DukeVerdun,
    /// Viscount Tull (Choam, strength 2).
    ViscountTull,
    /// Ein Calimar (Richese, strength 5).
    EinCalimar,
    /// Lady Helena (Richese, strength 4).
    LadyHelena,
    /// Flinto Kinnis (Richese, strength 3).
    FlintoKinnis,
    /// Haloa Rund (Richese, strength 2).
    HaloaRund,
    /// Talis Balt (Richese, strength 2).
    TalisBalt,
    /// Sanya Ecaz (Ecaz, strength 4).
    SanyaEcaz,
    /// Whitmore Bludd (Ecaz, strength 4).
    WhitmoreBludd,
    /// Ilesa Ecaz (Ecaz, strength 3).
    IlesaEcaz,
    /// Rivvy Dinari (Ecaz, strength 3).
    RivvyDinari,
    /// Bindikk Narvi (Ecaz, strength 2).
    BindikkNarvi,
    /// Lupino Ord (Moritani, strength 5).
    LupinoOrd,
    /// Grieu Kronos (Moritani, strength 4).
    GrieuKronos,
    /// Hiih Resser (Moritani, strength 4).
    HiihResser,
    /// Trin Kronos (Moritani, strength 2).
    TrinKronos,
    /// Vando Terboli (Moritani, strength 1).
    VandoTerboli,
    /// CHOAM's Auditor: an extra CHOAM leader a setup may declare (not in
    /// [`Leader::ALL`]); its Traitor card is in the game while it is in play
    /// (D-167).
    ChoamAuditor,
    /// The Kwisatz Haderach: an extra Atreides leader a setup may declare
    /// (D-104; no Traitor card, not in [`Leader::ALL`]).
    KwisatzHaderach,
}

/// One row of the leader table ([`Leader::facts`]).
struct LeaderFacts {
    /// The wire id.
    id: &'static str,
    /// The printed name.
    name: &'static str,
    /// The faction whose roster the leader belongs to.
    faction: Faction,
    /// The printed strength (`None`: variable, or no printed disc).
    strength: Option<u8>,
}

/// A row of the leader table, in column order.
const fn row(id: &'static str, name: &'static str, faction: Faction, strength: Option<u8>) -> LeaderFacts {
    LeaderFacts {
        id,
        name,
        faction,
        strength,
    }
}

impl Leader {
    /// All 60 leaders, grouped by faction in [`Faction::ALL`] order and in
    /// `board.md` order within each faction.
    pub const ALL: [Leader; 60] = [
        Leader::ThufirHawat,
        Leader::LadyJessica,
        Leader::GurneyHalleck,
        Leader::DuncanIdaho,
        Leader::DrWellingtonYueh,
        Leader::FeydRautha,
        Leader::BeastRabban,
        Leader::PiterDeVries,
        Leader::CaptainIakinNefud,
        Leader::UmmanKudu,
        Leader::HasimirFenring,
        Leader::CaptainAramsham,
        Leader::Caid,
        Leader::Burseg,
        Leader::Bashar,
        Leader::Stilgar,
        Leader::Chani,
        Leader::Otheym,
        Leader::ShadoutMapes,
        Leader::Jamis,
        Leader::StabanTuek,
        Leader::MasterBewt,
        Leader::EsmarTuek,
        Leader::SooSooSook,
        Leader::GuildRepresentative,
        Leader::Alia,
        Leader::WannaMarcus,
        Leader::PrincessIrulan,
        Leader::ReverendMotherRamallo,
        Leader::MargotLadyFenring,
        Leader::CTairPilru,
        Leader::TessiaVernius,
        Leader::DominicVernius,
        Leader::KaileaVernius,
        Leader::CammarPilru,
        Leader::HidarFenAjidica,
        Leader::MasterZaaf,
        Leader::Wykk,
        Leader::Blin,
        Leader::Zoal,
        Leader::FrankosAru,
        Leader::LadyJalma,
        Leader::RajivLondine,
        Leader::DukeVerdun,
        Leader::ViscountTull,
        Leader::EinCalimar,
        Leader::LadyHelena,
        Leader::FlintoKinnis,
        Leader::HaloaRund,
        Leader::TalisBalt,
        Leader::SanyaEcaz,
        Leader::WhitmoreBludd,
        Leader::IlesaEcaz,
        Leader::RivvyDinari,
        Leader::BindikkNarvi,
        Leader::LupinoOrd,
        Leader::GrieuKronos,
        Leader::HiihResser,
        Leader::TrinKronos,
        Leader::VandoTerboli,
    ];

    /// The extra leaders beyond the printed discs that a setup may declare
    /// for their faction: custody and Secret Ally scope; only the Auditor has
    /// a Traitor card ([`crate::Game::traitor_card_exists`], D-167).
    pub const EXTRA: [Leader; 2] = [Leader::ChoamAuditor, Leader::KwisatzHaderach];

    /// Is this one of [`Leader::EXTRA`]?
    pub const fn is_extra(self) -> bool {
        matches!(self, Leader::ChoamAuditor | Leader::KwisatzHaderach)
    }

    /// The printed facts of this leader: its one row of the leader table
    /// (`board.md` §Factions; the extra leaders have no printed disc).
    #[rustfmt::skip]
    const fn facts(self) -> LeaderFacts {
        match self {
            Leader::ThufirHawat => row("thufir_hawat", "Thufir Hawat", Faction::Atreides, Some(5)),
            Leader::LadyJessica => row("lady_jessica", "Lady Jessica", Faction::Atreides, Some(5)),
            Leader::GurneyHalleck => row("gurney_halleck", "Gurney Halleck", Faction::Atreides, Some(4)),
            Leader::DuncanIdaho => row("duncan_idaho", "Duncan Idaho", Faction::Atreides, Some(2)),
            Leader::DrWellingtonYueh => row("dr_wellington_yueh", "Dr. Wellington Yueh", Faction::Atreides, Some(1)),
            Leader::FeydRautha => row("feyd_rautha", "Feyd-Rautha", Faction::Harkonnen, Some(6)),
            Leader::BeastRabban => row("beast_rabban", "Beast Rabban", Faction::Harkonnen, Some(4)),
            Leader::PiterDeVries => row("piter_de_vries", "Piter de Vries", Faction::Harkonnen, Some(3)),
            Leader::CaptainIakinNefud => row("captain_iakin_nefud", "Captain Iakin Nefud", Faction::Harkonnen, Some(2)),
            Leader::UmmanKudu => row("umman_kudu", "Umman Kudu", Faction::Harkonnen, Some(1)),
            Leader::HasimirFenring => row("hasimir_fenring", "Hasimir Fenring", Faction::Emperor, Some(6)),
            Leader::CaptainAramsham => row("captain_aramsham", "Captain Aramsham", Faction::Emperor, Some(5)),
            Leader::Caid => row("caid", "Caid", Faction::Emperor, Some(3)),
            Leader::Burseg => row("burseg", "Burseg", Faction::Emperor, Some(3)),
            Leader::Bashar => row("bashar", "Bashar", Faction::Emperor, Some(2)),
            Leader::Stilgar => row("stilgar", "Stilgar", Faction::Fremen, Some(7)),
            Leader::Chani => row("chani", "Chani", Faction::Fremen, Some(6)),
            Leader::Otheym => row("otheym", "Otheym", Faction::Fremen, Some(5)),
            Leader::ShadoutMapes => row("shadout_mapes", "Shadout Mapes", Faction::Fremen, Some(3)),
            Leader::Jamis => row("jamis", "Jamis", Faction::Fremen, Some(2)),
            Leader::StabanTuek => row("staban_tuek", "Staban Tuek", Faction::Guild, Some(5)),
            Leader::MasterBewt => row("master_bewt", "Master Bewt", Faction::Guild, Some(3)),
            Leader::EsmarTuek => row("esmar_tuek", "Esmar Tuek", Faction::Guild, Some(3)),
            Leader::SooSooSook => row("soo_soo_sook", "Soo-Soo Sook", Faction::Guild, Some(2)),
            Leader::GuildRepresentative => row("guild_representative", "Guild Representative", Faction::Guild, Some(1)),
            Leader::Alia => row("alia", "Alia", Faction::BeneGesserit, Some(5)),
            Leader::WannaMarcus => row("wanna_marcus", "Wanna Marcus", Faction::BeneGesserit, Some(5)),
            Leader::PrincessIrulan => row("princess_irulan", "Princess Irulan", Faction::BeneGesserit, Some(5)),
            Leader::ReverendMotherRamallo => row("reverend_mother_ramallo", "Reverend Mother Ramallo", Faction::BeneGesserit, Some(5)),
            Leader::MargotLadyFenring => row("margot_lady_fenring", "Margot Lady Fenring", Faction::BeneGesserit, Some(5)),
            Leader::CTairPilru => row("c_tair_pilru", "C'tair Pilru", Faction::Ixians, Some(5)),
            Leader::TessiaVernius => row("tessia_vernius", "Tessia Vernius", Faction::Ixians, Some(5)),
            Leader::DominicVernius => row("dominic_vernius", "Dominic Vernius", Faction::Ixians, Some(4)),
            Leader::KaileaVernius => row("kailea_vernius", "Kailea Vernius", Faction::Ixians, Some(2)),
            Leader::CammarPilru => row("cammar_pilru", "Cammar Pilru", Faction::Ixians, Some(1)),
            Leader::HidarFenAjidica => row("hidar_fen_ajidica", "Hidar Fen Ajidica", Faction::Tleilaxu, Some(4)),
            Leader::MasterZaaf => row("master_zaaf", "Master Zaaf", Faction::Tleilaxu, Some(3)),
            Leader::Wykk => row("wykk", "Wykk", Faction::Tleilaxu, Some(2)),
            Leader::Blin => row("blin", "Blin", Faction::Tleilaxu, Some(1)),
            Leader::Zoal => row("zoal", "Zoal", Faction::Tleilaxu, None),
            Leader::FrankosAru => row("frankos_aru", "Frankos Aru", Faction::Choam, Some(4)),
            Leader::LadyJalma => row("lady_jalma", "Lady Jalma", Faction::Choam, Some(4)),
            Leader::RajivLondine => row("rajiv_londine", "Rajiv Londine", Faction::Choam, Some(3)),
            Leader::DukeVerdun => row("duke_verdun", "Duke Verdun", Faction::Choam, Some(3)),
            Leader::ViscountTull => row("viscount_tull", "Viscount Tull", Faction::Choam, Some(2)),
            Leader::EinCalimar => row("ein_calimar", "Ein Calimar", Faction::Richese, Some(5)),
            Leader::LadyHelena => row("lady_helena", "Lady Helena", Faction::Richese, Some(4)),
            Leader::FlintoKinnis => row("flinto_kinnis", "Flinto Kinnis", Faction::Richese, Some(3)),
            Leader::HaloaRund => row("haloa_rund", "Haloa Rund", Faction::Richese, Some(2)),
            Leader::TalisBalt => row("talis_balt", "Talis Balt", Faction::Richese, Some(2)),
            Leader::SanyaEcaz => row("sanya_ecaz", "Sanya Ecaz", Faction::Ecaz, Some(4)),
            Leader::WhitmoreBludd => row("whitmore_bludd", "Whitmore Bludd", Faction::Ecaz, Some(4)),
            Leader::IlesaEcaz => row("ilesa_ecaz", "Ilesa Ecaz", Faction::Ecaz, Some(3)),
            Leader::RivvyDinari => row("rivvy_dinari", "Rivvy Dinari", Faction::Ecaz, Some(3)),
            Leader::BindikkNarvi => row("bindikk_narvi", "Bindikk Narvi", Faction::Ecaz, Some(2)),
            Leader::LupinoOrd => row("lupino_ord", "Lupino Ord", Faction::Moritani, Some(5)),
            Leader::GrieuKronos => row("grieu_kronos", "Grieu Kronos", Faction::Moritani, Some(4)),
            Leader::HiihResser => row("hiih_resser", "Hiih Resser", Faction::Moritani, Some(4)),
            Leader::TrinKronos => row("trin_kronos", "Trin Kronos", Faction::Moritani, Some(2)),
            Leader::VandoTerboli => row("vando_terboli", "Vando Terboli", Faction::Moritani, Some(1)),
            Leader::ChoamAuditor => row("choam_auditor", "CHOAM's Auditor", Faction::Choam, None),
            Leader::KwisatzHaderach => row("kwisatz_haderach", "Kwisatz Haderach", Faction::Atreides, None),
        }
    }

    /// The faction whose roster this leader belongs to.
    pub const fn faction(self) -> Faction {
        self.facts().faction
    }

    /// The printed name.
    pub fn name(self) -> &'static str {
        self.facts().name
    }

    /// The printed strength; `None` for Zoal, whose strength is variable,
    /// and for the extra leaders (no printed disc).
    pub fn strength(self) -> Option<u8> {
        self.facts().strength
    }

    /// The wire id (snake_case of the printed name), identical to the serde
    /// representation.
    pub fn id(self) -> &'static str {
        self.facts().id
    }
}

impl fmt::Display for Leader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// One Traitor card (D-170): a leader's card, or the one Cheap Hero/Heroine
/// Traitor card the optional rule `cheapHeroTraitor` deals into the Traitor
/// deck. The Cheap Hero card is its own identity, never a [`Leader`]: it has
/// no faction, custody or strength, and it is no faction's leader.
///
/// Wire: the leader's id, or `"cheap_hero"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TraitorCard {
    /// The Traitor card of a leader.
    Leader(Leader),
    /// The one Cheap Hero/Heroine Traitor card (D-170; only with the game
    /// option `cheapHeroTraitor`).
    CheapHero,
}

impl TraitorCard {
    /// The wire id of the Cheap Hero/Heroine Traitor card.
    pub const CHEAP_HERO_ID: &'static str = "cheap_hero";

    /// The wire id: the leader's id, or `cheap_hero`.
    pub fn id(self) -> &'static str {
        match self {
            TraitorCard::Leader(l) => l.id(),
            TraitorCard::CheapHero => TraitorCard::CHEAP_HERO_ID,
        }
    }

    /// The printed name: the leader's, or "Cheap Hero/Heroine".
    pub fn name(self) -> &'static str {
        match self {
            TraitorCard::Leader(l) => l.name(),
            TraitorCard::CheapHero => "Cheap Hero/Heroine",
        }
    }

    /// The leader on the card; `None` for the Cheap Hero card.
    pub const fn leader(self) -> Option<Leader> {
        match self {
            TraitorCard::Leader(l) => Some(l),
            TraitorCard::CheapHero => None,
        }
    }

    /// The card of a wire id (a leader id or `cheap_hero`).
    pub(crate) fn from_id(id: &str) -> Option<TraitorCard> {
        if id == TraitorCard::CHEAP_HERO_ID {
            return Some(TraitorCard::CheapHero);
        }
        Leader::ALL
            .into_iter()
            .chain(Leader::EXTRA)
            .find(|l| l.id() == id)
            .map(TraitorCard::Leader)
    }
}

impl From<Leader> for TraitorCard {
    fn from(l: Leader) -> TraitorCard {
        TraitorCard::Leader(l)
    }
}

impl PartialEq<Leader> for TraitorCard {
    fn eq(&self, other: &Leader) -> bool {
        *self == TraitorCard::Leader(*other)
    }
}

impl fmt::Display for TraitorCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl Serialize for TraitorCard {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for TraitorCard {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = crate::codec::wire::text(d)?;
        TraitorCard::from_id(&s).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown Traitor card `{s}` (expected a leader id or `cheap_hero`)"
            ))
        })
    }
}

impl JsonSchema for TraitorCard {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "TraitorCard".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let values: Vec<serde_json::Value> = Leader::ALL
            .into_iter()
            .chain(Leader::EXTRA)
            .map(Leader::id)
            .chain([TraitorCard::CHEAP_HERO_ID])
            .map(serde_json::Value::from)
            .collect();
        schemars::json_schema!({
            "title": "TraitorCard",
            "description": "A Traitor card (D-170): a leader id, or `cheap_hero` (the one Cheap Hero/Heroine Traitor card, only with the game option `cheapHeroTraitor`).",
            "type": "string",
            "enum": values,
        })
    }
}

/// The phases of a turn, in order (RULES §1). Wire ids are camelCase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum Phase {
    /// Storm phase.
    Storm,
    /// Spice Blow phase (including Nexus).
    SpiceBlow,
    /// CHOAM Charity phase.
    ChoamCharity,
    /// Bidding phase.
    Bidding,
    /// Revival phase.
    Revival,
    /// Shipment and Movement phase.
    ShipmentMovement,
    /// Battle phase.
    Battle,
    /// Spice Collection phase.
    Collection,
    /// Mentat Pause phase.
    Mentat,
}

impl Phase {
    /// All nine phases in turn order (RULES §1).
    pub const ALL: [Phase; 9] = [
        Phase::Storm,
        Phase::SpiceBlow,
        Phase::ChoamCharity,
        Phase::Bidding,
        Phase::Revival,
        Phase::ShipmentMovement,
        Phase::Battle,
        Phase::Collection,
        Phase::Mentat,
    ];

    /// The printed name of the phase.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Storm => "Storm",
            Phase::SpiceBlow => "Spice Blow",
            Phase::ChoamCharity => "CHOAM Charity",
            Phase::Bidding => "Bidding",
            Phase::Revival => "Revival",
            Phase::ShipmentMovement => "Shipment and Movement",
            Phase::Battle => "Battle",
            Phase::Collection => "Spice Collection",
            Phase::Mentat => "Mentat Pause",
        }
    }

    /// The following phase of the same turn; `None` after Mentat.
    pub fn next(self) -> Option<Phase> {
        match self {
            Phase::Storm => Some(Phase::SpiceBlow),
            Phase::SpiceBlow => Some(Phase::ChoamCharity),
            Phase::ChoamCharity => Some(Phase::Bidding),
            Phase::Bidding => Some(Phase::Revival),
            Phase::Revival => Some(Phase::ShipmentMovement),
            Phase::ShipmentMovement => Some(Phase::Battle),
            Phase::Battle => Some(Phase::Collection),
            Phase::Collection => Some(Phase::Mentat),
            Phase::Mentat => None,
        }
    }

    /// The wire id (RULES §1), identical to the serde representation.
    pub fn id(self) -> &'static str {
        match self {
            Phase::Storm => "storm",
            Phase::SpiceBlow => "spiceBlow",
            Phase::ChoamCharity => "choamCharity",
            Phase::Bidding => "bidding",
            Phase::Revival => "revival",
            Phase::ShipmentMovement => "shipmentMovement",
            Phase::Battle => "battle",
            Phase::Collection => "collection",
            Phase::Mentat => "mentat",
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// Identifier of a host frame (one host-reported step); serialises as a bare
/// number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct FrameId(pub u32);

impl fmt::Display for FrameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Identifier of one physical card (e.g. a Treachery card); serialises as a
/// bare number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct CardId(pub u16);

impl fmt::Display for CardId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Identifies one reported arrival (an entry or a non-entry move) until its
/// reactions settle and the engine emits `resume` for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct ArrivalId(pub u32);

impl fmt::Display for ArrivalId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `board.md` §Factions, the "leaders (strength)" column, one row per
    /// faction in [`Faction::ALL`] order.
    const BOARD_ROSTERS: [&str; 12] = [
        "Thufir Hawat 5, Lady Jessica 5, Gurney Halleck 4, Duncan Idaho 2, Dr. Wellington Yueh 1",
        "Feyd-Rautha 6, Beast Rabban 4, Piter de Vries 3, Captain Iakin Nefud 2, Umman Kudu 1",
        "Hasimir Fenring 6, Captain Aramsham 5, Caid 3, Burseg 3, Bashar 2",
        "Stilgar 7, Chani 6, Otheym 5, Shadout Mapes 3, Jamis 2",
        "Staban Tuek 5, Master Bewt 3, Esmar Tuek 3, Soo-Soo Sook 2, Guild Representative 1",
        "Alia 5, Wanna Marcus 5, Princess Irulan 5, Reverend Mother Ramallo 5, Margot Lady Fenring 5",
        "C'tair Pilru 5, Tessia Vernius 5, Dominic Vernius 4, Kailea Vernius 2, Cammar Pilru 1",
        "Hidar Fen Ajidica 4, Master Zaaf 3, Wykk 2, Blin 1, Zoal (variable)",
        "Frankos Aru 4, Lady Jalma 4, Rajiv Londine 3, Duke Verdun 3, Viscount Tull 2",
        "Ein Calimar 5, Lady Helena 4, Flinto Kinnis 3, Haloa Rund 2, Talis Balt 2",
        "Sanya Ecaz 4, Whitmore Bludd 4, Ilesa Ecaz 3, Rivvy Dinari 3, Bindikk Narvi 2",
        "Lupino Ord 5, Grieu Kronos 4, Hiih Resser 4, Trin Kronos 2, Vando Terboli 1",
    ];

    /// The leader table against `board.md`: each faction's roster, in order,
    /// with each leader's printed name, strength and faction; the wire id is
    /// the snake_case of the name (the serde form is checked by
    /// `board::tests`).
    #[test]
    fn leader_table_is_board_md_rosters() {
        for (faction, roster) in Faction::ALL.into_iter().zip(BOARD_ROSTERS) {
            let shown: Vec<String> = faction
                .leaders()
                .iter()
                .map(|l| {
                    assert_eq!(l.faction(), faction, "{l:?}");
                    match l.strength() {
                        Some(s) => format!("{} {s}", l.name()),
                        None => format!("{} (variable)", l.name()),
                    }
                })
                .collect();
            assert_eq!(shown.join(", "), roster, "{faction:?}");
        }
        for leader in Leader::ALL.into_iter().chain(Leader::EXTRA) {
            let snake: String = leader
                .name()
                .to_lowercase()
                .replace("'s ", " ")
                .replace('.', "")
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect();
            assert_eq!(leader.id(), snake, "{leader:?}");
        }
    }

    /// The extra leaders a setup may declare (RULES R-DUKE-1 keeps Duke
    /// Vidal out of every table): their faction and no printed strength.
    #[test]
    fn extra_leaders_have_a_faction_and_no_printed_disc() {
        assert_eq!(Leader::ChoamAuditor.faction(), Faction::Choam);
        assert_eq!(Leader::KwisatzHaderach.faction(), Faction::Atreides);
        for leader in Leader::EXTRA {
            assert!(leader.is_extra());
            assert_eq!(leader.strength(), None);
            assert!(!Leader::ALL.contains(&leader));
        }
    }
}
