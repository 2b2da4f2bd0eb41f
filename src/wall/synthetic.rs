//! A made-up log that the wall check proves: for tests, and for trying a reader on a game
//! whose every draw sits where its seed puts it.

use super::{Players, Seed, Walls};
use crate::tile::TileId;

/// A complete four-player log of `hands` hands on the walls of a base64 seed made from
/// `words` (624 words, written little-endian as Tenhou's base64 form): each INIT deals its
/// wall, every seat discards the tile it draws, and each hand ends in an exhaustive draw after
/// 70 draws with no hand shown and no points moving (the dealer passes, the honba grows).
pub fn tsumogiri_log(words: &[u32; 624], hands: usize) -> String {
    use base64::Engine;
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let text = format!(
        "mt19937ar-sha512-n288-base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    );
    let seed = Seed::parse(&text).expect("624 words are a base64 seed");
    let mut walls = Walls::new(&seed, Players::Four);
    let list = |tiles: &[TileId]| {
        tiles
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut log = format!(
        "<mjloggm ver=\"2.3\"><SHUFFLE seed=\"{text}\" ref=\"\"/><GO type=\"169\" lobby=\"0\"/>\
         <UN n0=\"A\" n1=\"B\" n2=\"C\" n3=\"D\" dan=\"16,16,16,16\" rate=\"2000.00,2000.00,2000.00,2000.00\" sx=\"M,M,M,M\"/>\
         <TAIKYOKU oya=\"0\"/>"
    );
    for h in 0..hands {
        let wall = walls.next(None).expect("a game seed");
        let oya = h % 4;
        let hai: Vec<String> = (0..4)
            .map(|s| format!(" hai{s}=\"{}\"", list(&wall.dealt((s + 4 - oya) % 4))))
            .collect();
        log.push_str(&format!(
            "<INIT seed=\"{h},{h},0,{},{},{}\" ten=\"250,250,250,250\" oya=\"{oya}\"{}/>",
            wall.dice[0] - 1,
            wall.dice[1] - 1,
            wall.dora(0).expect("an indicator"),
            hai.concat()
        ));
        for i in 0..super::TILES - 52 - super::DEAD {
            let seat = (oya + i) % 4;
            let t = wall.live(i, 0).expect("70 live draws");
            let draw = b"TUVW"[seat] as char;
            let discard = b"DEFG"[seat] as char;
            log.push_str(&format!("<{draw}{t}/><{discard}{t}/>"));
        }
        log.push_str(&format!(
            "<RYUUKYOKU ba=\"{h},0\" sc=\"250,0,250,0,250,0,250,0\"{}/>",
            if h + 1 == hands {
                " owari=\"250,0.0,250,0.0,250,0.0,250,0.0\""
            } else {
                ""
            }
        ));
    }
    log.push_str("</mjloggm>");
    log
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The log replays whole, every hand checked: 70 draws each, one indicator.
    #[test]
    fn the_made_up_log_replays_against_its_walls() {
        let mut words = [0u32; 624];
        for (i, w) in words.iter_mut().enumerate() {
            *w = (i as u32 + 1).wrapping_mul(0x9E37_79B9);
        }
        let xml = tsumogiri_log(&words, 3);
        let log = crate::mjlog::decode(xml.as_bytes()).unwrap();
        let mut draws = Vec::new();
        let obs = crate::stats::observe_game(&log, &mut draws).unwrap();
        let wall = &obs.facts.wall;
        assert_eq!(wall.unchecked, None);
        assert_eq!((wall.hands, wall.draws, wall.indicators), (3, 210, 3));
        assert_eq!(obs.facts.hands.len(), 3);
        // Another seed's walls do not fit it.
        words[0] ^= 1;
        let other = tsumogiri_log(&words, 1);
        let seed_at = |x: &str| x.find("SHUFFLE seed=\"").unwrap() + 14;
        let seed_end = |x: &str| seed_at(x) + x[seed_at(x)..].find('"').unwrap();
        let swapped = format!(
            "{}{}{}",
            &xml[..seed_at(&xml)],
            &other[seed_at(&other)..seed_end(&other)],
            &xml[seed_end(&xml)..]
        );
        let log = crate::mjlog::decode(swapped.as_bytes()).unwrap();
        let Err(e) = crate::stats::observe_game(&log, &mut Vec::new()) else {
            panic!("another seed's wall fits")
        };
        assert_eq!(
            (e.check, e.hand),
            (crate::replay::Check::WallMismatch, Some(0))
        );
    }
}
