//! Which proofs the replay runs on a game beyond the checks every game gets (tile ids, turn
//! order, hand sizes, the terminal records against the replayed hands, sticks and scores):
//! decided once per game from what its format records and whether its rules are known to be
//! Tenhou's. The manifest lists them per game (`proofs`) and counts them in its totals.
//!
//! | proof | what it proves | runs on |
//! |---|---|---|
//! | `yaku` | every win's yaku (with han) and yakuman equal the score of the replayed hand | logs that record them: mjlog, tenhou.net/6, majiang |
//! | `fu` | every win's fu, where the log records it | the same (tenhou.net/6 writes no fu for limit hands, majiang none for yakuman) |
//! | `points` | every win's points and limit | the same |
//! | `payments` | every seat's delta of every win from the scored points, honba and sticks; of every draw, the noten and nagashi payments | every format (mjai's deltas prove the points it does not record) |
//! | `legal` | every action taken was in its seat's legal set (§23) | every game whose decisions are asked for |
//!
//! Invariants: the score proofs (`yaku`, `fu`, `points`, `payments`) run only under rules known
//! to be Tenhou's standard ones (a GO type within 0xFF that the log states or its log id
//! names; mjai, whose protocol plays Tenhou's rules, always), so that a proof failing means
//! the log or haifu is wrong, never that the game was played under other rules; `yaku`, `fu`
//! and `points` come together. The legal sets are Tenhou's whatever the game's rules.

use crate::mjlog::{go_type, lacks, Format, GameLog};

/// One proof: its bit in [`Proofs`] and its name in the manifest (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Proof {
    Yaku,
    Fu,
    Points,
    Payments,
    Legal,
}

impl Proof {
    /// Every proof, in the order the manifest lists them.
    pub(crate) const ALL: [Proof; 5] = [
        Proof::Yaku,
        Proof::Fu,
        Proof::Points,
        Proof::Payments,
        Proof::Legal,
    ];

    /// The name the manifest writes.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Proof::Yaku => "yaku",
            Proof::Fu => "fu",
            Proof::Points => "points",
            Proof::Payments => "payments",
            Proof::Legal => "legal",
        }
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// The proofs that run on one game, and what its format leaves them to do without.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Proofs {
    bits: u8,
    /// The log records the fu of some wins only (0 for the others): `fu` is proved where it
    /// is not 0.
    pub(crate) some_fu: bool,
    /// The log does not name the seat liable for a yakuman (pao): a yakuman's payments are
    /// proved by their sum alone, as a win with a liable seat's are.
    pub(crate) no_pao: bool,
    /// The log does not show the tenpai hands of an exhaustive draw: the noten payments are
    /// proved against the hands the replay holds ([`crate::replay::HandState::is_tenpai`]).
    pub(crate) no_shown_hands: bool,
}

impl Proofs {
    /// The proofs for `log` (GO type `go`), `legal` when its decisions are asked for.
    pub(crate) fn of(log: &GameLog, go: u32, legal: bool) -> Proofs {
        let o = &log.origin;
        // mjai's protocol plays Tenhou's rules: its games lack only the GO type's room and
        // length, which no score depends on.
        let tenhou_rules =
            go <= go_type::STANDARD_MAX && (o.format == Format::Mjai || !o.lacks(lacks::RULES));
        let mut p = Proofs {
            bits: 0,
            some_fu: o.lacks(lacks::SOME_FU),
            no_pao: o.lacks(lacks::PAO),
            no_shown_hands: o.lacks(lacks::SHOWN_HANDS),
        };
        if tenhou_rules {
            p.bits |= Proof::Payments.bit();
            if !o.lacks(lacks::WIN_VALUE) {
                p.bits |= Proof::Yaku.bit() | Proof::Fu.bit() | Proof::Points.bit();
            }
        }
        if legal {
            p.bits |= Proof::Legal.bit();
        }
        p
    }

    pub(crate) fn has(self, p: Proof) -> bool {
        self.bits & p.bit() != 0
    }

    /// Whether every win is scored from the replay's state (for its points, or its payments).
    pub(crate) fn scores(self) -> bool {
        self.has(Proof::Points) || self.has(Proof::Payments)
    }

    /// The names of the proofs that run, in [`Proof::ALL`]'s order.
    pub(crate) fn names(self) -> impl Iterator<Item = &'static str> {
        Proof::ALL
            .into_iter()
            .filter(move |&p| self.has(p))
            .map(Proof::name)
    }

    /// These proofs with `p`.
    #[cfg(test)]
    pub(crate) fn with(mut self, p: Proof) -> Proofs {
        self.bits |= p.bit();
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mjlog::Origin;

    fn log(format: Format, lacks: u16) -> GameLog {
        GameLog {
            origin: Origin {
                format,
                lacks,
                ..Origin::default()
            },
            ..GameLog::default()
        }
    }

    fn names(p: Proofs) -> Vec<&'static str> {
        p.names().collect()
    }

    /// Per format, under Tenhou's standard rules (GO type 0xA9) and not.
    #[test]
    fn proofs_per_format_and_rules() {
        let phoenix = 0xA9;
        let all = ["yaku", "fu", "points", "payments"];
        assert_eq!(
            names(Proofs::of(&log(Format::Mjlog, 0), phoenix, false)),
            all
        );
        let mjlog = Proofs::of(&log(Format::Mjlog, 0), phoenix, true);
        assert_eq!(names(mjlog), ["yaku", "fu", "points", "payments", "legal"]);
        assert!(!mjlog.some_fu && !mjlog.no_pao && !mjlog.no_shown_hands);
        // A lobby rule set (kiriage mangan and the like): no score proof, legal sets still.
        assert_eq!(
            names(Proofs::of(&log(Format::Mjlog, 0), 553, true)),
            ["legal"]
        );
        assert_eq!(
            names(Proofs::of(&log(Format::Mjlog, 0), 0x100, false)),
            [""; 0]
        );
        assert_eq!(names(Proofs::of(&log(Format::Mjlog, 0), 0xFF, false)), all);
        // tenhou.net/6 of a Tenhou game: fu where it is written, hands shown nowhere.
        let t6 = lacks::SOME_FU | lacks::WIN_HAND | lacks::SHOWN_HANDS;
        let p = Proofs::of(&log(Format::Tenhou6, t6), phoenix, false);
        assert_eq!(names(p), all);
        assert!(p.some_fu && p.no_shown_hands && !p.no_pao);
        // The same from a room whose rules are not Tenhou's (Mahjong Soul): none.
        let ms = Proofs::of(&log(Format::Tenhou6, t6 | lacks::RULES), phoenix, true);
        assert_eq!(names(ms), ["legal"]);
        // majiang: no pao.
        let mj = lacks::WIN_HAND | lacks::SOME_FU | lacks::PAO;
        let p = Proofs::of(&log(Format::Majiang, mj), phoenix, false);
        assert_eq!(names(p), all);
        assert!(p.no_pao && p.some_fu);
        assert_eq!(
            names(Proofs::of(
                &log(Format::Majiang, mj | lacks::RULES),
                phoenix,
                false
            )),
            [""; 0]
        );
        // mjai: payments only, its rules (Tenhou's) whether or not a log id names them.
        let mjai = crate::formats::mjai::read::LACKS;
        let p = Proofs::of(&log(Format::Mjai, mjai), 0x89, true);
        assert_eq!(names(p), ["payments", "legal"]);
        assert!(p.scores() && p.no_pao && p.no_shown_hands);
        assert!(!Proofs::of(&log(Format::Mjai, mjai), 0x89, false).has(Proof::Legal));
        assert!(!Proofs::default().scores());
        assert!(Proofs::default().with(Proof::Points).scores());
    }
}
