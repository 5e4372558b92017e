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
    /// (issue 13; no Traitor card, not in [`Leader::ALL`]).
    KwisatzHaderach,
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

    /// The faction whose roster this leader belongs to.
    pub const fn faction(self) -> Faction {
        match self {
            Leader::ThufirHawat => Faction::Atreides,
            Leader::LadyJessica => Faction::Atreides,
            Leader::GurneyHalleck => Faction::Atreides,
            Leader::DuncanIdaho => Faction::Atreides,
            Leader::DrWellingtonYueh => Faction::Atreides,
            Leader::FeydRautha => Faction::Harkonnen,
            Leader::BeastRabban => Faction::Harkonnen,
            Leader::PiterDeVries => Faction::Harkonnen,
            Leader::CaptainIakinNefud => Faction::Harkonnen,
            Leader::UmmanKudu => Faction::Harkonnen,
            Leader::HasimirFenring => Faction::Emperor,
            Leader::CaptainAramsham => Faction::Emperor,
            Leader::Caid => Faction::Emperor,
            Leader::Burseg => Faction::Emperor,
            Leader::Bashar => Faction::Emperor,
            Leader::Stilgar => Faction::Fremen,
            Leader::Chani => Faction::Fremen,
            Leader::Otheym => Faction::Fremen,
            Leader::ShadoutMapes => Faction::Fremen,
            Leader::Jamis => Faction::Fremen,
            Leader::StabanTuek => Faction::Guild,
            Leader::MasterBewt => Faction::Guild,
            Leader::EsmarTuek => Faction::Guild,
            Leader::SooSooSook => Faction::Guild,
            Leader::GuildRepresentative => Faction::Guild,
            Leader::Alia => Faction::BeneGesserit,
            Leader::WannaMarcus => Faction::BeneGesserit,
            Leader::PrincessIrulan => Faction::BeneGesserit,
            Leader::ReverendMotherRamallo => Faction::BeneGesserit,
            Leader::MargotLadyFenring => Faction::BeneGesserit,
            Leader::CTairPilru => Faction::Ixians,
            Leader::TessiaVernius => Faction::Ixians,
            Leader::DominicVernius => Faction::Ixians,
            Leader::KaileaVernius => Faction::Ixians,
            Leader::CammarPilru => Faction::Ixians,
            Leader::HidarFenAjidica => Faction::Tleilaxu,
            Leader::MasterZaaf => Faction::Tleilaxu,
            Leader::Wykk => Faction::Tleilaxu,
            Leader::Blin => Faction::Tleilaxu,
            Leader::Zoal => Faction::Tleilaxu,
            Leader::FrankosAru => Faction::Choam,
            Leader::LadyJalma => Faction::Choam,
            Leader::RajivLondine => Faction::Choam,
            Leader::DukeVerdun => Faction::Choam,
            Leader::ViscountTull => Faction::Choam,
            Leader::EinCalimar => Faction::Richese,
            Leader::LadyHelena => Faction::Richese,
            Leader::FlintoKinnis => Faction::Richese,
            Leader::HaloaRund => Faction::Richese,
            Leader::TalisBalt => Faction::Richese,
            Leader::SanyaEcaz => Faction::Ecaz,
            Leader::WhitmoreBludd => Faction::Ecaz,
            Leader::IlesaEcaz => Faction::Ecaz,
            Leader::RivvyDinari => Faction::Ecaz,
            Leader::BindikkNarvi => Faction::Ecaz,
            Leader::LupinoOrd => Faction::Moritani,
            Leader::GrieuKronos => Faction::Moritani,
            Leader::HiihResser => Faction::Moritani,
            Leader::TrinKronos => Faction::Moritani,
            Leader::VandoTerboli => Faction::Moritani,
            Leader::ChoamAuditor => Faction::Choam,
            Leader::KwisatzHaderach => Faction::Atreides,
        }
    }

    /// The printed name.
    pub fn name(self) -> &'static str {
        match self {
            Leader::ThufirHawat => "Thufir Hawat",
            Leader::LadyJessica => "Lady Jessica",
            Leader::GurneyHalleck => "Gurney Halleck",
            Leader::DuncanIdaho => "Duncan Idaho",
            Leader::DrWellingtonYueh => "Dr. Wellington Yueh",
            Leader::FeydRautha => "Feyd-Rautha",
            Leader::BeastRabban => "Beast Rabban",
            Leader::PiterDeVries => "Piter de Vries",
            Leader::CaptainIakinNefud => "Captain Iakin Nefud",
            Leader::UmmanKudu => "Umman Kudu",
            Leader::HasimirFenring => "Hasimir Fenring",
            Leader::CaptainAramsham => "Captain Aramsham",
            Leader::Caid => "Caid",
            Leader::Burseg => "Burseg",
            Leader::Bashar => "Bashar",
            Leader::Stilgar => "Stilgar",
            Leader::Chani => "Chani",
            Leader::Otheym => "Otheym",
            Leader::ShadoutMapes => "Shadout Mapes",
            Leader::Jamis => "Jamis",
            Leader::StabanTuek => "Staban Tuek",
            Leader::MasterBewt => "Master Bewt",
            Leader::EsmarTuek => "Esmar Tuek",
            Leader::SooSooSook => "Soo-Soo Sook",
            Leader::GuildRepresentative => "Guild Representative",
            Leader::Alia => "Alia",
            Leader::WannaMarcus => "Wanna Marcus",
            Leader::PrincessIrulan => "Princess Irulan",
            Leader::ReverendMotherRamallo => "Reverend Mother Ramallo",
            Leader::MargotLadyFenring => "Margot Lady Fenring",
            Leader::CTairPilru => "C'tair Pilru",
            Leader::TessiaVernius => "Tessia Vernius",
            Leader::DominicVernius => "Dominic Vernius",
            Leader::KaileaVernius => "Kailea Vernius",
            Leader::CammarPilru => "Cammar Pilru",
            Leader::HidarFenAjidica => "Hidar Fen Ajidica",
            Leader::MasterZaaf => "Master Zaaf",
            Leader::Wykk => "Wykk",
            Leader::Blin => "Blin",
            Leader::Zoal => "Zoal",
            Leader::FrankosAru => "Frankos Aru",
            Leader::LadyJalma => "Lady Jalma",
            Leader::RajivLondine => "Rajiv Londine",
            Leader::DukeVerdun => "Duke Verdun",
            Leader::ViscountTull => "Viscount Tull",
            Leader::EinCalimar => "Ein Calimar",
            Leader::LadyHelena => "Lady Helena",
            Leader::FlintoKinnis => "Flinto Kinnis",
            Leader::HaloaRund => "Haloa Rund",
            Leader::TalisBalt => "Talis Balt",
            Leader::SanyaEcaz => "Sanya Ecaz",
            Leader::WhitmoreBludd => "Whitmore Bludd",
            Leader::IlesaEcaz => "Ilesa Ecaz",
            Leader::RivvyDinari => "Rivvy Dinari",
            Leader::BindikkNarvi => "Bindikk Narvi",
            Leader::LupinoOrd => "Lupino Ord",
            Leader::GrieuKronos => "Grieu Kronos",
            Leader::HiihResser => "Hiih Resser",
            Leader::TrinKronos => "Trin Kronos",
            Leader::VandoTerboli => "Vando Terboli",
            Leader::ChoamAuditor => "CHOAM's Auditor",
            Leader::KwisatzHaderach => "Kwisatz Haderach",
        }
    }

    /// The printed strength; `None` for Zoal, whose strength is variable,
    /// and for the extra leaders (no printed disc).
    pub fn strength(self) -> Option<u8> {
        match self {
            Leader::ThufirHawat => Some(5),
            Leader::LadyJessica => Some(5),
            Leader::GurneyHalleck => Some(4),
            Leader::DuncanIdaho => Some(2),
            Leader::DrWellingtonYueh => Some(1),
            Leader::FeydRautha => Some(6),
            Leader::BeastRabban => Some(4),
            Leader::PiterDeVries => Some(3),
            Leader::CaptainIakinNefud => Some(2),
            Leader::UmmanKudu => Some(1),
            Leader::HasimirFenring => Some(6),
            Leader::CaptainAramsham => Some(5),
            Leader::Caid => Some(3),
            Leader::Burseg => Some(3),
            Leader::Bashar => Some(2),
            Leader::Stilgar => Some(7),
            Leader::Chani => Some(6),
            Leader::Otheym => Some(5),
            Leader::ShadoutMapes => Some(3),
            Leader::Jamis => Some(2),
            Leader::StabanTuek => Some(5),
            Leader::MasterBewt => Some(3),
            Leader::EsmarTuek => Some(3),
            Leader::SooSooSook => Some(2),
            Leader::GuildRepresentative => Some(1),
            Leader::Alia => Some(5),
            Leader::WannaMarcus => Some(5),
            Leader::PrincessIrulan => Some(5),
            Leader::ReverendMotherRamallo => Some(5),
            Leader::MargotLadyFenring => Some(5),
            Leader::CTairPilru => Some(5),
            Leader::TessiaVernius => Some(5),
            Leader::DominicVernius => Some(4),
            Leader::KaileaVernius => Some(2),
            Leader::CammarPilru => Some(1),
            Leader::HidarFenAjidica => Some(4),
            Leader::MasterZaaf => Some(3),
            Leader::Wykk => Some(2),
            Leader::Blin => Some(1),
            Leader::Zoal => None,
            Leader::FrankosAru => Some(4),
            Leader::LadyJalma => Some(4),
            Leader::RajivLondine => Some(3),
            Leader::DukeVerdun => Some(3),
            Leader::ViscountTull => Some(2),
            Leader::EinCalimar => Some(5),
            Leader::LadyHelena => Some(4),
            Leader::FlintoKinnis => Some(3),
            Leader::HaloaRund => Some(2),
            Leader::TalisBalt => Some(2),
            Leader::SanyaEcaz => Some(4),
            Leader::WhitmoreBludd => Some(4),
            Leader::IlesaEcaz => Some(3),
            Leader::RivvyDinari => Some(3),
            Leader::BindikkNarvi => Some(2),
            Leader::LupinoOrd => Some(5),
            Leader::GrieuKronos => Some(4),
            Leader::HiihResser => Some(4),
            Leader::TrinKronos => Some(2),
            Leader::VandoTerboli => Some(1),
            Leader::ChoamAuditor | Leader::KwisatzHaderach => None,
        }
    }

    /// The wire id (snake_case of the printed name), identical to the serde
    /// representation.
    pub fn id(self) -> &'static str {
        match self {
            Leader::ThufirHawat => "thufir_hawat",
            Leader::LadyJessica => "lady_jessica",
            Leader::GurneyHalleck => "gurney_halleck",
            Leader::DuncanIdaho => "duncan_idaho",
            Leader::DrWellingtonYueh => "dr_wellington_yueh",
            Leader::FeydRautha => "feyd_rautha",
            Leader::BeastRabban => "beast_rabban",
            Leader::PiterDeVries => "piter_de_vries",
            Leader::CaptainIakinNefud => "captain_iakin_nefud",
            Leader::UmmanKudu => "umman_kudu",
            Leader::HasimirFenring => "hasimir_fenring",
            Leader::CaptainAramsham => "captain_aramsham",
            Leader::Caid => "caid",
            Leader::Burseg => "burseg",
            Leader::Bashar => "bashar",
            Leader::Stilgar => "stilgar",
            Leader::Chani => "chani",
            Leader::Otheym => "otheym",
            Leader::ShadoutMapes => "shadout_mapes",
            Leader::Jamis => "jamis",
            Leader::StabanTuek => "staban_tuek",
            Leader::MasterBewt => "master_bewt",
            Leader::EsmarTuek => "esmar_tuek",
            Leader::SooSooSook => "soo_soo_sook",
            Leader::GuildRepresentative => "guild_representative",
            Leader::Alia => "alia",
            Leader::WannaMarcus => "wanna_marcus",
            Leader::PrincessIrulan => "princess_irulan",
            Leader::ReverendMotherRamallo => "reverend_mother_ramallo",
            Leader::MargotLadyFenring => "margot_lady_fenring",
            Leader::CTairPilru => "c_tair_pilru",
            Leader::TessiaVernius => "tessia_vernius",
            Leader::DominicVernius => "dominic_vernius",
            Leader::KaileaVernius => "kailea_vernius",
            Leader::CammarPilru => "cammar_pilru",
            Leader::HidarFenAjidica => "hidar_fen_ajidica",
            Leader::MasterZaaf => "master_zaaf",
            Leader::Wykk => "wykk",
            Leader::Blin => "blin",
            Leader::Zoal => "zoal",
            Leader::FrankosAru => "frankos_aru",
            Leader::LadyJalma => "lady_jalma",
            Leader::RajivLondine => "rajiv_londine",
            Leader::DukeVerdun => "duke_verdun",
            Leader::ViscountTull => "viscount_tull",
            Leader::EinCalimar => "ein_calimar",
            Leader::LadyHelena => "lady_helena",
            Leader::FlintoKinnis => "flinto_kinnis",
            Leader::HaloaRund => "haloa_rund",
            Leader::TalisBalt => "talis_balt",
            Leader::SanyaEcaz => "sanya_ecaz",
            Leader::WhitmoreBludd => "whitmore_bludd",
            Leader::IlesaEcaz => "ilesa_ecaz",
            Leader::RivvyDinari => "rivvy_dinari",
            Leader::BindikkNarvi => "bindikk_narvi",
            Leader::LupinoOrd => "lupino_ord",
            Leader::GrieuKronos => "grieu_kronos",
            Leader::HiihResser => "hiih_resser",
            Leader::TrinKronos => "trin_kronos",
            Leader::VandoTerboli => "vando_terboli",
            Leader::ChoamAuditor => "choam_auditor",
            Leader::KwisatzHaderach => "kwisatz_haderach",
        }
    }
}

impl fmt::Display for Leader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
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
