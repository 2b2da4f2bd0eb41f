//! Bytes of one mjlog document → [`GameLog`].

use quick_xml::events::{BytesStart, Event as XmlEvent};
use quick_xml::Reader;

use super::meld::{decode_meld, MeldKind};
use super::{Agari, Event, GameLog, Init, Ryuukyoku, Un};
use crate::reason::{Failure, Reason};
use crate::tile::TileId;

/// Largest score or score change accepted, in hundreds (100 million points): far beyond any
/// real game, and small enough that the replay's sums of points cannot overflow an i32.
pub(crate) const MAX_SCORE_HUNDREDS: i32 = 1_000_000;

/// Why a document is not a decodable mjlog (the detail names the tag and attribute): one of
/// [`Reason::Empty`], [`Reason::NotMjlog`], [`Reason::Xml`], [`Reason::BadTile`],
/// [`Reason::BadAttribute`], [`Reason::MissingAttribute`], [`Reason::BadMeld`].
pub type DecodeError = Failure;

fn err(reason: Reason, detail: impl Into<String>) -> DecodeError {
    Failure::new(reason, detail)
}

/// Decodes a whole mjlog document (already decompressed).
///
/// Succeeds only on well-formed XML whose root is `<mjloggm>`, and whose known tags carry
/// well-formed attributes with tile ids below 136 and seats below 4. It does not check that the
/// game makes sense: that is the replay's job.
pub fn decode(bytes: &[u8]) -> Result<GameLog, DecodeError> {
    let mut log = GameLog::default();
    decode_into(bytes, &mut log)?;
    Ok(log)
}

/// Decodes into `log`, reusing its event buffer.
pub(crate) fn decode_into(bytes: &[u8], log: &mut GameLog) -> Result<(), DecodeError> {
    log.events.clear();
    log.unknown_tags.clear();
    log.go_type = None;
    log.origin = super::Origin::default();
    let Some(&first) = bytes.iter().find(|b| !b.is_ascii_whitespace()) else {
        return Err(err(Reason::Empty, "the file holds no data"));
    };
    // A UTF-8 byte-order mark may precede the markup.
    let starts_with_markup = first == b'<' || bytes.starts_with(b"\xEF\xBB\xBF<");
    if !starts_with_markup {
        let head: String = bytes.iter().take(8).map(|b| format!("{b:02x}")).collect();
        return Err(err(
            Reason::NotMjlog,
            format!("content is neither gzip, XML nor JSON (starts with bytes {head})"),
        ));
    }
    let mut reader = Reader::from_reader(bytes);
    reader.config_mut().check_end_names = true;
    let mut root_seen = false;
    loop {
        let pos = reader.buffer_position();
        let ev = reader
            .read_event()
            .map_err(|e| err(Reason::Xml, format!("at byte {pos}: {e}")))?;
        match ev {
            XmlEvent::Start(tag) | XmlEvent::Empty(tag) => {
                if !root_seen {
                    if tag.name().as_ref() != "mjloggm" {
                        return Err(err(
                            Reason::NotMjlog,
                            format!("root element is <{}>, not <mjloggm>", tag.name().as_ref()),
                        ));
                    }
                    root_seen = true;
                    continue;
                }
                decode_tag(&tag, log)?;
            }
            XmlEvent::Eof => break,
            XmlEvent::Text(t) if !root_seen && !t.trim().is_empty() => {
                return Err(err(Reason::NotMjlog, "text before the root element"));
            }
            _ => {}
        }
    }
    if !root_seen {
        return Err(err(Reason::NotMjlog, "no <mjloggm> root element"));
    }
    Ok(())
}

fn decode_tag(tag: &BytesStart<'_>, log: &mut GameLog) -> Result<(), DecodeError> {
    let name = tag.name();
    let name = name.as_ref().as_bytes();
    if let Some((&first, rest)) = name.split_first() {
        if !rest.is_empty() && rest.iter().all(u8::is_ascii_digit) {
            let tile = parse_tile(rest).ok_or_else(|| {
                err(
                    Reason::BadTile,
                    format!("<{}>: tile id out of range", String::from_utf8_lossy(name)),
                )
            })?;
            let draw = match first {
                b'T' => Some((true, 0)),
                b'U' => Some((true, 1)),
                b'V' => Some((true, 2)),
                b'W' => Some((true, 3)),
                b'D' => Some((false, 0)),
                b'E' => Some((false, 1)),
                b'F' => Some((false, 2)),
                b'G' => Some((false, 3)),
                _ => None,
            };
            if let Some((is_draw, seat)) = draw {
                log.events.push(if is_draw {
                    Event::Draw { seat, tile }
                } else {
                    Event::Discard { seat, tile }
                });
                return Ok(());
            }
        }
    }
    let a = Attrs::read(tag)?;
    let ev = match name {
        b"SHUFFLE" => Event::Shuffle {
            seed: a
                .opt("seed")
                .map(|v| String::from_utf8_lossy(v).into_owned()),
        },
        b"GO" => {
            let go_type = a.num::<u32>("type")?;
            log.go_type = Some(go_type);
            let lobby = a.opt("lobby").map(|_| a.num::<u32>("lobby")).transpose()?;
            Event::Go { go_type, lobby }
        }
        b"UN" => Event::Un(Box::new(decode_un(&a)?)),
        b"BYE" => Event::Bye {
            who: a.seat("who")?,
        },
        b"TAIKYOKU" => Event::Taikyoku {
            oya: a
                .opt("oya")
                .map(|_| a.seat("oya"))
                .transpose()?
                .unwrap_or(0),
        },
        b"INIT" => Event::Init(Box::new(decode_init(&a)?)),
        b"N" => {
            let m = a.num::<u32>("m")?;
            let meld =
                decode_meld(m).map_err(|_| err(Reason::BadMeld, format!("<N m=\"{m}\">")))?;
            let who = a.seat("who")?;
            if meld.kind == MeldKind::Nukidora {
                Event::Kita {
                    who,
                    tile: meld.tiles[0],
                }
            } else {
                Event::Call { who, meld, m }
            }
        }
        b"REACH" => {
            let step = a.num::<u8>("step")?;
            if step != 1 && step != 2 {
                return Err(err(
                    Reason::BadAttribute,
                    format!("<REACH step=\"{step}\">"),
                ));
            }
            let ten = match a.opt("ten") {
                Some(_) => Some(a.ten("ten")?),
                None => None,
            };
            Event::Reach {
                who: a.seat("who")?,
                step,
                ten,
            }
        }
        b"DORA" => Event::Dora {
            tile: a.tile("hai")?,
        },
        b"AGARI" => Event::Agari(Box::new(decode_agari(&a)?)),
        b"RYUUKYOKU" => Event::Ryuukyoku(Box::new(decode_ryuukyoku(&a)?)),
        other => {
            let other = String::from_utf8_lossy(other).into_owned();
            match log.unknown_tags.iter_mut().find(|(n, _)| *n == other) {
                Some((_, c)) => *c += 1,
                None => log.unknown_tags.push((other.clone(), 1)),
            }
            Event::Unknown(other)
        }
    };
    log.events.push(ev);
    Ok(())
}

fn decode_un(a: &Attrs<'_>) -> Result<Un, DecodeError> {
    let mut un = Un::default();
    for (i, key) in ["n0", "n1", "n2", "n3"].iter().enumerate() {
        un.names[i] = a.opt(key).map(url_decode);
    }
    if a.opt("dan").is_some() {
        un.dan = Some(a.array::<i32, 4>("dan")?);
    }
    if a.opt("rate").is_some() {
        un.rate = Some(a.array::<f64, 4>("rate")?);
    }
    if let Some(sx) = a.opt("sx") {
        let parts: Vec<String> = sx
            .split(|&b| b == b',')
            .map(|p| String::from_utf8_lossy(p).into_owned())
            .collect();
        if let Ok(arr) = <[String; 4]>::try_from(parts) {
            un.sx = Some(arr);
        }
    }
    Ok(un)
}

fn decode_init(a: &Attrs<'_>) -> Result<Init, DecodeError> {
    let seed = a.array::<u32, 6>("seed")?;
    let dora_indicator = u8::try_from(seed[5])
        .ok()
        .filter(|&t| t < 136)
        .ok_or_else(|| err(Reason::BadTile, "<INIT seed>: dora indicator out of range"))?;
    let small = |v: u32, what: &str| {
        u8::try_from(v).map_err(|_| err(Reason::BadAttribute, format!("<INIT seed>: {what} {v}")))
    };
    let mut hai: [Vec<TileId>; 4] = Default::default();
    for (i, key) in ["hai0", "hai1", "hai2", "hai3"].iter().enumerate() {
        hai[i] = match a.opt(key) {
            Some(v) if !v.is_empty() => a.tiles_of(key, v)?,
            _ => Vec::new(),
        };
    }
    Ok(Init {
        round: small(seed[0], "round")?,
        honba: small(seed[1], "honba")?,
        kyotaku: small(seed[2], "kyotaku")?,
        dice: [small(seed[3], "dice")?, small(seed[4], "dice")?],
        dora_indicator,
        ten: a.ten("ten")?,
        oya: a.seat("oya")?,
        hai,
        shuffle: a
            .opt("shuffle")
            .map(|v| String::from_utf8_lossy(v).into_owned()),
    })
}

fn decode_agari(a: &Attrs<'_>) -> Result<Agari, DecodeError> {
    let ba = a.array::<u8, 2>("ba")?;
    let yaku_flat: Vec<u8> = a.list_or_empty("yaku")?;
    if !yaku_flat.len().is_multiple_of(2) {
        return Err(err(
            Reason::BadAttribute,
            "<AGARI yaku>: odd number of values",
        ));
    }
    Ok(Agari {
        honba: ba[0],
        kyotaku: ba[1],
        hai: a.tiles("hai")?,
        m: a.list_or_empty("m")?,
        machi: a.tile("machi")?,
        ten: a.array::<i32, 3>("ten")?,
        yaku: yaku_flat.chunks(2).map(|c| (c[0], c[1])).collect(),
        yakuman: a.list_or_empty("yakuman")?,
        dora_hai: a.tiles_or_empty("doraHai")?,
        ura_hai: a.tiles_or_empty("doraHaiUra")?,
        who: a.seat("who")?,
        from_who: a.seat("fromWho")?,
        pao_who: a.opt("paoWho").map(|_| a.seat("paoWho")).transpose()?,
        sc: a.scores("sc")?,
        owari: a.opt("owari").map(|_| a.owari()).transpose()?,
    })
}

fn decode_ryuukyoku(a: &Attrs<'_>) -> Result<Ryuukyoku, DecodeError> {
    let ba = a.array::<u8, 2>("ba")?;
    let mut hai: [Option<Vec<TileId>>; 4] = Default::default();
    for (i, key) in ["hai0", "hai1", "hai2", "hai3"].iter().enumerate() {
        hai[i] = a.opt(key).map(|v| a.tiles_of(key, v)).transpose()?;
    }
    Ok(Ryuukyoku {
        kind: a
            .opt("type")
            .map(|v| String::from_utf8_lossy(v).into_owned()),
        honba: ba[0],
        kyotaku: ba[1],
        sc: a.scores("sc")?,
        hai,
        owari: a.opt("owari").map(|_| a.owari()).transpose()?,
    })
}

/// The attributes of one tag, borrowed from the document.
struct Attrs<'a> {
    tag: String,
    pairs: Vec<(&'a [u8], &'a [u8])>,
}

impl<'a> Attrs<'a> {
    fn read(tag: &'a BytesStart<'a>) -> Result<Self, DecodeError> {
        let name = tag.name().as_ref().to_string();
        let mut pairs = Vec::new();
        // Attribute values are borrowed raw: Tenhou writes numbers, commas and %-escapes only.
        let raw = tag.attributes_raw().as_bytes();
        let mut rest = raw;
        loop {
            let start = rest.iter().position(|b| !b.is_ascii_whitespace());
            let Some(start) = start else { break };
            rest = &rest[start..];
            if rest == b"/" {
                break;
            }
            let eq = rest
                .iter()
                .position(|&b| b == b'=')
                .ok_or_else(|| err(Reason::Xml, format!("<{name}>: attribute without a value")))?;
            let key = rest[..eq].trim_ascii();
            let after = &rest[eq + 1..].trim_ascii_start();
            let quote = *after
                .first()
                .filter(|&&q| q == b'"' || q == b'\'')
                .ok_or_else(|| err(Reason::Xml, format!("<{name}>: unquoted attribute value")))?;
            let close = after[1..].iter().position(|&b| b == quote).ok_or_else(|| {
                err(
                    Reason::Xml,
                    format!("<{name}>: unterminated attribute value"),
                )
            })?;
            pairs.push((key, &after[1..1 + close]));
            rest = &after[close + 2..];
        }
        Ok(Attrs { tag: name, pairs })
    }

    fn opt(&self, key: &str) -> Option<&'a [u8]> {
        self.pairs
            .iter()
            .find(|(k, _)| *k == key.as_bytes())
            .map(|(_, v)| *v)
    }

    fn get(&self, key: &str) -> Result<&'a [u8], DecodeError> {
        self.opt(key).ok_or_else(|| {
            err(
                Reason::MissingAttribute,
                format!("<{}> has no {key}", self.tag),
            )
        })
    }

    fn bad(&self, key: &str, v: &[u8]) -> DecodeError {
        err(
            Reason::BadAttribute,
            format!(
                "<{} {key}=\"{}\">",
                self.tag,
                String::from_utf8_lossy(&v[..v.len().min(80)])
            ),
        )
    }

    fn num<T: std::str::FromStr>(&self, key: &str) -> Result<T, DecodeError> {
        let v = self.get(key)?;
        parse_num(v).ok_or_else(|| self.bad(key, v))
    }

    fn seat(&self, key: &str) -> Result<u8, DecodeError> {
        let v = self.get(key)?;
        parse_num::<u8>(v)
            .filter(|&s| s < 4)
            .ok_or_else(|| self.bad(key, v))
    }

    fn tile(&self, key: &str) -> Result<TileId, DecodeError> {
        let v = self.get(key)?;
        parse_tile(v).ok_or_else(|| {
            err(
                Reason::BadTile,
                format!("<{} {key}=\"{}\">", self.tag, String::from_utf8_lossy(v)),
            )
        })
    }

    fn list<T: std::str::FromStr>(&self, key: &str) -> Result<Vec<T>, DecodeError> {
        let v = self.get(key)?;
        v.split(|&b| b == b',')
            .map(|p| parse_num(p).ok_or_else(|| self.bad(key, v)))
            .collect()
    }

    fn list_or_empty<T: std::str::FromStr>(&self, key: &str) -> Result<Vec<T>, DecodeError> {
        match self.opt(key) {
            Some(v) if !v.is_empty() => self.list(key),
            _ => Ok(Vec::new()),
        }
    }

    fn array<T: std::str::FromStr + Copy + Default, const N: usize>(
        &self,
        key: &str,
    ) -> Result<[T; N], DecodeError> {
        let v = self.get(key)?;
        let mut out = [T::default(); N];
        let mut n = 0;
        for p in v.split(|&b| b == b',') {
            if n == N {
                return Err(self.bad(key, v));
            }
            out[n] = parse_num(p).ok_or_else(|| self.bad(key, v))?;
            n += 1;
        }
        if n != N {
            return Err(self.bad(key, v));
        }
        Ok(out)
    }

    /// A score list `before,delta` × 4 in hundreds; chip rules append four more pairs
    /// (chips), which are dropped here and flagged by the GO type as another rule set.
    fn scores(&self, key: &str) -> Result<[i32; 8], DecodeError> {
        let v: Vec<i32> = self.list(key)?;
        match v.len() {
            8 | 16 if v.iter().all(|x| x.abs() <= MAX_SCORE_HUNDREDS) => {
                Ok(std::array::from_fn(|i| v[i]))
            }
            _ => Err(self.bad(key, self.get(key)?)),
        }
    }

    /// `owari`: final score (hundreds) and uma per seat; finite, scores within
    /// ±[`MAX_SCORE_HUNDREDS`].
    fn owari(&self) -> Result<Vec<f64>, DecodeError> {
        let v: Vec<f64> = self.list("owari")?;
        let ok = v.iter().all(|x| x.is_finite())
            && v.iter()
                .step_by(2)
                .all(|x| x.abs() <= MAX_SCORE_HUNDREDS as f64);
        if !ok {
            return Err(self.bad("owari", self.get("owari")?));
        }
        Ok(v)
    }

    /// Four scores in hundreds, each within ±[`MAX_SCORE_HUNDREDS`].
    fn ten(&self, key: &str) -> Result<[i32; 4], DecodeError> {
        let v = self.array::<i32, 4>(key)?;
        if v.iter().any(|x| x.abs() > MAX_SCORE_HUNDREDS) {
            return Err(self.bad(key, self.get(key)?));
        }
        Ok(v)
    }

    /// A tile list that may be absent or empty.
    fn tiles_or_empty(&self, key: &str) -> Result<Vec<TileId>, DecodeError> {
        match self.opt(key) {
            Some(v) if !v.is_empty() => self.tiles_of(key, v),
            _ => Ok(Vec::new()),
        }
    }

    fn tiles(&self, key: &str) -> Result<Vec<TileId>, DecodeError> {
        let v = self.get(key)?;
        self.tiles_of(key, v)
    }

    fn tiles_of(&self, key: &str, v: &[u8]) -> Result<Vec<TileId>, DecodeError> {
        v.split(|&b| b == b',')
            .map(|p| {
                parse_tile(p).ok_or_else(|| {
                    err(
                        Reason::BadTile,
                        format!(
                            "<{} {key}=\"{}\">",
                            self.tag,
                            String::from_utf8_lossy(&v[..v.len().min(80)])
                        ),
                    )
                })
            })
            .collect()
    }
}

fn parse_num<T: std::str::FromStr>(v: &[u8]) -> Option<T> {
    std::str::from_utf8(v).ok()?.trim().parse().ok()
}

fn parse_tile(v: &[u8]) -> Option<TileId> {
    if v.is_empty() || v.len() > 3 || !v.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n = v.iter().fold(0u32, |n, &d| n * 10 + (d - b'0') as u32);
    (n < 136).then_some(n as u8)
}

/// Decodes `%XX` escapes; invalid UTF-8 becomes U+FFFD.
fn url_decode(v: &[u8]) -> String {
    let mut out = Vec::with_capacity(v.len());
    let mut i = 0;
    while i < v.len() {
        if v[i] == b'%' && i + 2 < v.len() {
            let hex = |c: u8| (c as char).to_digit(16);
            if let (Some(h), Some(l)) = (hex(v[i + 1]), hex(v[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(v[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mjlog::MeldKind;

    #[test]
    fn decodes_every_kind_of_tag() {
        let xml = br#"<mjloggm ver="2.3"><SHUFFLE seed="x" ref=""/><GO type="169" lobby="0"/><UN n0="%41%42" n1="b" n2="c" n3="d" dan="16,16,17,16" rate="2016.5,2015,2171,2170" sx="M,F,M,F"/><TAIKYOKU oya="0"/><INIT seed="0,0,0,2,1,66" ten="250,250,250,250" oya="0" hai0="0,1,2,3,4,5,6,7,8,9,10,11,12" hai1="13,14,15,17,18,19,20,21,22,23,24,25,26" hai2="27,28,29,30,31,32,33,34,35,36,37,38,39" hai3="40,41,42,43,44,45,46,47,48,49,50,51,53"/><T60/><D60/><N who="1" m="33322" /><REACH who="1" step="1"/><REACH who="1" ten="250,240,250,250" step="2"/><DORA hai="70" /><BYE who="2" /><UN n2="c" /><FOO x="1"/><RYUUKYOKU ba="0,1" sc="250,0,240,0,250,0,250,0" hai1="13,14" owari="250,0.0,240,0.0,250,0.0,250,0.0" /></mjloggm>"#;
        let log = decode(xml).unwrap();
        assert_eq!(log.go_type, Some(169));
        let ev = &log.events;
        // SHUFFLE GO UN TAIKYOKU INIT T D N REACH REACH DORA BYE UN FOO RYUUKYOKU
        assert_eq!(ev.len(), 15);
        match &ev[2] {
            Event::Un(un) => {
                assert_eq!(un.names[0].as_deref(), Some("AB"));
                assert_eq!(un.dan, Some([16, 16, 17, 16]));
            }
            e => panic!("{e:?}"),
        }
        match &ev[4] {
            Event::Init(i) => {
                assert_eq!(i.dora_indicator, 66);
                assert_eq!(i.hai[3][12], 53);
                assert_eq!(i.dice, [2, 1]);
            }
            e => panic!("{e:?}"),
        }
        assert_eq!(ev[5], Event::Draw { seat: 0, tile: 60 });
        assert_eq!(ev[6], Event::Discard { seat: 0, tile: 60 });
        match &ev[7] {
            Event::Call { who: 1, meld, .. } => assert_eq!(meld.kind, MeldKind::Pon),
            e => panic!("{e:?}"),
        }
        assert_eq!(
            ev[9],
            Event::Reach {
                who: 1,
                step: 2,
                ten: Some([250, 240, 250, 250])
            }
        );
        assert_eq!(ev[13], Event::Unknown("FOO".into()));
        assert_eq!(log.unknown_tags, vec![("FOO".to_string(), 1)]);
        match &ev[14] {
            Event::Ryuukyoku(r) => {
                assert_eq!(r.end_name(), "exhaustive");
                assert_eq!(r.hai[1], Some(vec![13, 14]));
                assert!(r.owari.is_some());
            }
            e => panic!("{e:?}"),
        }
    }

    #[test]
    fn rejects_what_is_not_an_mjlog() {
        assert_eq!(decode(b"").unwrap_err().reason, Reason::Empty);
        assert_eq!(
            decode(b"<html><body>404</body></html>").unwrap_err().reason,
            Reason::NotMjlog
        );
        assert_eq!(
            decode(b"<mjloggm ver=\"2.3\"><INIT se").unwrap_err().reason,
            Reason::Xml
        );
        assert_eq!(
            decode(b"<mjloggm><T136/></mjloggm>").unwrap_err().reason,
            Reason::BadTile
        );
        assert_eq!(
            decode(b"<mjloggm><REACH who=\"5\" step=\"1\"/></mjloggm>")
                .unwrap_err()
                .reason,
            Reason::BadAttribute
        );
        assert_eq!(
            decode(b"<mjloggm><DORA/></mjloggm>").unwrap_err().reason,
            Reason::MissingAttribute
        );
        // Scores beyond ±100 million points could overflow the replay's sums: refused.
        assert_eq!(
            decode(b"<mjloggm><REACH who=\"0\" step=\"2\" ten=\"250,1000001,250,250\"/></mjloggm>")
                .unwrap_err()
                .reason,
            Reason::BadAttribute
        );
    }
}
