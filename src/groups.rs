//! The analyses a run writes only when asked for: `haifu run|ingest --with NAME[,NAME...]` (or
//! `--all`). This is the one list of their names, what each records and writes, and what it
//! costs; the command line, the frames, the reports' "needs" messages and `haifu stats --list`
//! all read it.
//!
//! Invariants (tested in `frames`): every on-request frame is written by at least one group;
//! the first group in [`GROUPS`] that lists a frame is the one a message names when the frame
//! is missing; a group's [`Observe`] switches record exactly what its frames need.

use crate::stats::Observe;

/// One analysis written on request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Group {
    /// §7: every discard decision (frame `decisions`), which `haifu agree` reads.
    Decisions,
    /// §23: every decision with its legal actions (frame `choices`), and the replay's second
    /// proof, that every action taken was legal.
    Choices,
    /// Each checked hand's wall (frame `walls`).
    Walls,
    /// §10–§14, the game's development: yaku and draw reasons, by turn, where the tiles are,
    /// the declaration tile, records.
    Development,
    /// §15: the danger estimators at every moment after a riichi.
    DangerMoments,
    /// §16: the hand-reading methods at every draw and call.
    HandReading,
    /// §16 and every moment's view, for scoring a user's method.
    HandReadingMoments,
    /// §17–§20: the tables engines load (opponent tenpai, win chance, final placement, how
    /// wins are made).
    Tables,
}

/// What a [`Group`] is called on the command line, what it writes and what it costs.
#[derive(Clone, Copy, Debug)]
pub struct GroupInfo {
    pub group: Group,
    /// The `--with` name.
    pub name: &'static str,
    /// The sections of docs/definitions.md it computes ("" for none).
    pub sections: &'static str,
    /// One line: what it records.
    pub about: &'static str,
    /// The frames it writes (files `<name>.parquet`), besides every run's.
    pub frames: &'static [&'static str],
    /// What it adds to a run, measured on the 6,448 Phoenix games against the default run
    /// (docs/performance.md, "What each `--with` group costs").
    pub cost: &'static str,
}

/// Every group, in the order `--help` and `haifu stats --list` show them.
pub const GROUPS: [GroupInfo; 8] = [
    GroupInfo {
        group: Group::Decisions,
        name: "decisions",
        sections: "§7",
        about: "every discard decision, for `haifu agree` and report `decisions`",
        frames: &["decisions"],
        cost: "+56% time; 3.1 M rows, 93 MiB",
    },
    GroupInfo {
        group: Group::Choices,
        name: "choices",
        sections: "§23",
        about: "every decision (discard, riichi, calls, kans, wins) with its legal actions, \
                each taken action proved legal; report `choices`",
        frames: &["choices"],
        cost: "+86% CPU; 3.8 M rows, 67 MB",
    },
    GroupInfo {
        group: Group::Walls,
        name: "walls",
        sections: "",
        about: "each checked hand's wall, 136 tiles in the order they are taken",
        frames: &["walls"],
        cost: "+8% CPU; 31 MiB",
    },
    GroupInfo {
        group: Group::Development,
        name: "development",
        sections: "§10-§14",
        about: "yaku, by turn, calls, where the tiles are, the declaration tile, records",
        frames: &[
            "wins",
            "win_yaku",
            "riichi",
            "calls",
            "by_turn",
            "tiles_at_end",
            "hand_ends",
        ],
        cost: "+20% CPU",
    },
    GroupInfo {
        group: Group::DangerMoments,
        name: "danger-moments",
        sections: "§15",
        about: "the danger estimators scored at every moment after a riichi",
        frames: &["danger_by_turn", "danger_moments"],
        cost: "+42% CPU",
    },
    GroupInfo {
        group: Group::HandReading,
        name: "hand-reading",
        sections: "§16",
        about: "the hand-reading methods scored at every draw and call",
        frames: &["hand_reading"],
        cost: "+96% CPU",
    },
    GroupInfo {
        group: Group::HandReadingMoments,
        name: "hand-reading-moments",
        sections: "§16",
        about: "hand-reading and every moment's view, to score your own method",
        frames: &["hand_reading", "hand_reading_moments"],
        cost: "+193% CPU; 3.1 M rows, 130 MB",
    },
    GroupInfo {
        group: Group::Tables,
        name: "tables",
        sections: "§17-§20",
        about: "opponent tenpai, win chance, final placement, ron share and win values",
        frames: &["discard_units", "placement_units", "win_kinds"],
        cost: "+23% CPU",
    },
];

impl Group {
    /// Its entry in [`GROUPS`].
    pub fn info(self) -> &'static GroupInfo {
        GROUPS
            .iter()
            .find(|g| g.group == self)
            .expect("every group is listed")
    }

    /// The `--with` name.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The group called `name`.
    pub fn from_name(name: &str) -> Option<Group> {
        GROUPS.iter().find(|g| g.name == name).map(|g| g.group)
    }

    /// The first group that writes frame `frame` (the one to name when it is missing), `None`
    /// for a frame every run writes.
    pub fn writing(frame: &str) -> Option<Group> {
        GROUPS
            .iter()
            .find(|g| g.frames.contains(&frame))
            .map(|g| g.group)
    }
}

impl Observe {
    /// What a replay records for `groups`.
    pub fn with(groups: &[Group]) -> Observe {
        let has = |g| groups.contains(&g);
        Observe {
            decisions: has(Group::Decisions),
            walls: has(Group::Walls),
            development: has(Group::Development),
            danger_moments: has(Group::DangerMoments),
            hand_reading: has(Group::HandReading),
            hand_reading_moments: has(Group::HandReadingMoments),
            choices: has(Group::Choices),
            tables: has(Group::Tables),
        }
    }

    /// The groups whose switches are on, in [`GROUPS`] order.
    pub fn groups(self) -> Vec<Group> {
        GROUPS
            .iter()
            .map(|g| g.group)
            .filter(|&g| Observe::with(&[g]).within(self))
            .collect()
    }

    /// True when every switch on in `self` is on in `other`.
    fn within(self, other: Observe) -> bool {
        let on = |o: Observe| {
            [
                o.decisions,
                o.walls,
                o.development,
                o.danger_moments,
                o.hand_reading,
                o.hand_reading_moments,
                o.choices,
                o.tables,
            ]
        };
        on(self).iter().zip(on(other)).all(|(&a, b)| !a || b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_distinct() {
        for g in &GROUPS {
            assert_eq!(Group::from_name(g.name), Some(g.group));
            assert_eq!(g.group.name(), g.name);
            assert!(!g.frames.is_empty(), "{}", g.name);
        }
        assert_eq!(Group::from_name("peer"), None);
    }

    #[test]
    fn a_frame_is_named_by_its_first_group() {
        assert_eq!(Group::writing("hand_reading"), Some(Group::HandReading));
        assert_eq!(
            Group::writing("hand_reading_moments"),
            Some(Group::HandReadingMoments)
        );
        assert_eq!(Group::writing("win_yaku"), Some(Group::Development));
        assert_eq!(Group::writing("danger_moments"), Some(Group::DangerMoments));
        assert_eq!(Group::writing("hands"), None);
    }

    #[test]
    fn each_group_turns_on_its_own_switch_only() {
        assert_eq!(Observe::with(&[]), Observe::default());
        let all: Vec<Group> = GROUPS.iter().map(|g| g.group).collect();
        assert_eq!(Observe::with(&all).groups(), all);
        for &g in &all {
            assert_eq!(Observe::with(&[g]).groups(), vec![g], "{}", g.name());
        }
        let two = Observe::with(&[Group::Walls, Group::Development]);
        assert!(two.walls && two.development && !two.decisions && !two.hand_reading);
    }
}
