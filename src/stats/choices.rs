//! §23 every decision: one row per decision of every seat (a moment with two or more legal
//! actions, [`crate::replay::Decision`]), with its legal set and the action taken, for a
//! `choices` frame (one row per decision: game_id, hand, seat, turn, kind, legal, taken,
//! observed) written by the frame layer.
//!
//! Asking for these rows turns on the replay's second proof: a game where a seat took an
//! action outside its legal set is refused (`illegal-action`) and gives no rows.
//!
//! Invariants: rows are in the order the decisions close (event order; a ron's rivals at the
//! hand's end); `legal` holds two or more actions and, when `taken` is `Some`, holds it.

use crate::replay::{Decision, HandState, Observer};

/// One §23 decision: the replay's own record of it (compact; text on request).
pub(crate) type Choice = Decision;

impl Decision {
    /// The `kind` column: `discard`, `riichi`, `tsumo`, `ron`, `chi`, `pon`, `daiminkan`,
    /// `ankan`, `kakan` or `kyuushu`.
    pub(crate) fn kind_text(&self) -> &'static str {
        self.kind.as_str()
    }
}

/// Collects the §23 decisions of one game.
#[derive(Default)]
pub(crate) struct ChoiceObserver {
    pub(crate) rows: Vec<Choice>,
}

impl Observer for ChoiceObserver {
    fn wants_decisions(&self) -> bool {
        true
    }

    fn decision(&mut self, _hand: &HandState, d: &Decision) {
        self.rows.push(d.clone());
    }
}

#[cfg(test)]
mod tests {
    use crate::mjlog::decode;

    /// f001 (tools/fixtures/README.md) through `observe_game_with` asking for choices: its
    /// rows are the decisions of the game, each with a legal set of two or more actions that
    /// holds the taken one; and its first hand's first decision is the dealer's first discard.
    #[test]
    fn choices_of_a_fixture() {
        let log = decode(include_bytes!(
            "../../fixtures/2099010100gm-00a9-0000-0000f001.xml"
        ))
        .unwrap();
        let mut draws = Vec::new();
        let obs = crate::stats::observe_game_with(
            &log,
            &mut draws,
            crate::stats::Observe {
                choices: true,
                ..Default::default()
            },
        )
        .unwrap();
        assert!(!obs.choices.is_empty());
        for c in &obs.choices {
            assert!(c.legal.len() >= 2, "{c:?}");
            if let Some(t) = c.taken {
                assert!(c.legal.contains(t), "{c:?}");
            }
            assert_eq!(c.observed(), c.taken.is_some());
            // The frame's text (plain pushes) is the actions' own forms, space-separated.
            let joined: Vec<String> = c.legal.actions().iter().map(|a| a.to_string()).collect();
            assert_eq!(c.legal.text(), joined.join(" "));
        }
        let first = &obs.choices[0];
        assert_eq!((first.hand, first.turn), (0, 0));
        assert_eq!(usize::from(first.seat), usize::from(log_dealer(&log)));
        // Without asking, no rows.
        let plain = crate::stats::observe_game(&log, &mut draws).unwrap();
        assert!(plain.choices.is_empty());
    }

    fn log_dealer(log: &crate::mjlog::GameLog) -> u8 {
        log.events
            .iter()
            .find_map(|e| match e {
                crate::mjlog::Event::Init(i) => Some(i.oya),
                _ => None,
            })
            .unwrap()
    }
}
