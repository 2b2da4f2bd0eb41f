//! tenhou.net/6 JSON, the format of Tenhou's own viewer and its `mjlog2json` export (and of
//! Mahjong Soul games exported for the tools that read it): [`write`] from a decoded game,
//! `read` into the decoded events.
//!
//! `{"ver":2.3,"ref":ID,"log":[hand…],"ratingc":…,"rule":{"disp":…,"aka53":…,"aka52":…,
//! "aka51":…},"lobby":…,"dan":[…],"rate":[…],"sx":[…],"sc":[…],"name":[…]}`, each hand
//! `[[round, honba, sticks], scores, dora indicators, ura indicators, then per seat its
//! starting hand, its takes and its discards, and the result]`. Tiles: 11–19 man, 21–29 pin,
//! 31–39 sou, 41–47 winds and dragons, 51–53 the red fives; in a discard list 60 is the tile
//! just drawn, `r` marks the riichi declaration, and a daiminkan leaves a 0. Calls are
//! strings: `c` + the called tile + the two from the hand (chi); `p`, `m` (daiminkan) placed
//! before the called tile where the seat it came from sits (first: the left seat; after one
//! tile: across; last: the right seat); `k` (added kan) where the pon's `p` was, followed by
//! the added tile; `a` (concealed kan) before the fourth tile. Results: `["和了", deltas,
//! [winner, from, liable, points, yaku…], …]` per winner, `["流局", deltas]`, or the draw's
//! name. `connection`, when a player left or came back: `what` 0 for a `BYE`, 1 for a return
//! (`UN` with one name), `log` the hand, `who` the seat, `step` the draws, discards and calls
//! of the hand before it.

pub(crate) mod read;
mod write;

pub use write::{tile_code, write};
