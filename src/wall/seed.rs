//! The shuffle seeds Tenhou writes, and the random words they generate.
//!
//! Three forms, by the text before the first comma:
//! - `mt19937ar-sha512-n288-base64,<base64>` (SHUFFLE `seed`, 2010 on): 2,496 bytes, read as
//!   624 little-endian 32-bit words;
//! - `mt19937ar-sha512-n288,<hex>,<hex>,…` (SHUFFLE `seed`, 2009): 32-bit words in hex;
//! - `mt19937ar,<hex>,…` (INIT `shuffle`, 2008–2009): a fresh generator for every hand.
//!
//! Every form seeds MT19937 with `init_by_array` over all its words, leading zero words
//! included (the key's length is part of the seed). The two `sha512-n288` forms draw 288 words
//! per hand from one generator for the whole game and hash them, 32 words (128 bytes, each
//! word little-endian) at a time, with SHA-512 into 9 × 16 = 144 words; the per-hand form uses
//! the generator's first 137 words directly. Words 0..135 drive the shuffle, 135 and 136 the
//! dice. MT19937 is `rand_mt`'s and SHA-512 is `sha2`'s: both are checked against reference
//! outputs in the tests below. A 128-byte message is exactly one SHA-512 block, so each digest
//! is `sha2`'s compression function over that block and the fixed padding block, from the
//! standard initial state: the same digest as `Sha512::digest` (tested), a third cheaper,
//! since it skips the hasher's buffering and lets `sha2` take both blocks in one call.

use rand_mt::Mt;
use sha2::block_api::compress512;

/// Which of Tenhou's seed forms a log uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SeedForm {
    /// `mt19937ar-sha512-n288-base64` (SHUFFLE, 2010 on).
    Base64,
    /// `mt19937ar-sha512-n288` with hex words (SHUFFLE, 2009).
    Hex,
    /// `mt19937ar` with hex words in every INIT's `shuffle` (2008–2009).
    PerHand,
}

impl SeedForm {
    /// The form's name as Tenhou writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            SeedForm::Base64 => "mt19937ar-sha512-n288-base64",
            SeedForm::Hex => "mt19937ar-sha512-n288",
            SeedForm::PerHand => "mt19937ar",
        }
    }

    /// True for the forms of logs before 2010, whose dead wall has the two tiles of every
    /// stack the other way round ([`super::Layout`]).
    pub fn old_dead_wall(self) -> bool {
        self != SeedForm::Base64
    }
}

/// Why a seed could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedError(pub String);

impl std::fmt::Display for SeedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Words in the base64 form's key.
const BASE64_WORDS: usize = 624;
/// Words those forms hash them into (9 SHA-512 digests of 16 words).
const RND_WORDS: usize = 144;
/// Words the per-hand form draws (135 for the shuffle and 2 for the dice).
const PER_HAND_WORDS: usize = 137;

/// SHA-512's initial state (FIPS 180-4, 5.3.5).
const SHA512_IV: [u64; 8] = [
    0x6a09_e667_f3bc_c908,
    0xbb67_ae85_84ca_a73b,
    0x3c6e_f372_fe94_f82b,
    0xa54f_f53a_5f1d_36f1,
    0x510e_527f_ade6_82d1,
    0x9b05_688c_2b3e_6c1f,
    0x1f83_d9ab_fb41_bd6b,
    0x5be0_cd19_137e_2179,
];

/// The padding block of a 128-byte (1,024-bit) message: a 1 bit, zeros, the length.
const PAD_128: [u8; 128] = {
    let mut b = [0u8; 128];
    b[0] = 0x80;
    b[126] = 0x04;
    b
};

/// SHA-512 of one 128-byte message, as the 16 little-endian 32-bit words of its digest.
fn sha512_words(message: &[u8; 128], out: &mut [u32]) {
    let mut state = SHA512_IV;
    compress512(&mut state, &[*message, PAD_128]);
    for (pair, h) in out.chunks_exact_mut(2).zip(state) {
        // The digest is the state words big-endian; read back as little-endian 32-bit words.
        let b = h.to_be_bytes();
        pair[0] = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        pair[1] = u32::from_le_bytes([b[4], b[5], b[6], b[7]]);
    }
}

/// A parsed seed: its form and the key words given to `init_by_array`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seed {
    pub form: SeedForm,
    pub key: Vec<u32>,
}

impl Seed {
    /// Reads a SHUFFLE `seed` or INIT `shuffle` attribute value.
    pub fn parse(value: &str) -> Result<Seed, SeedError> {
        let (name, rest) = value
            .split_once(',')
            .ok_or_else(|| SeedError(format!("seed {:?} has no comma", clip(value))))?;
        let form = match name {
            "mt19937ar-sha512-n288-base64" => SeedForm::Base64,
            "mt19937ar-sha512-n288" => SeedForm::Hex,
            "mt19937ar" => SeedForm::PerHand,
            other => return Err(SeedError(format!("unknown seed form {:?}", clip(other)))),
        };
        let key = match form {
            SeedForm::Base64 => base64_words(rest)?,
            SeedForm::Hex | SeedForm::PerHand => hex_words(rest)?,
        };
        Ok(Seed { form, key })
    }
}

fn clip(s: &str) -> &str {
    match s.char_indices().nth(40) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

fn base64_words(text: &str) -> Result<Vec<u32>, SeedError> {
    use base64::Engine;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(text.trim())
        .map_err(|e| SeedError(format!("base64 seed: {e}")))?;
    if bytes.len() != BASE64_WORDS * 4 {
        return Err(SeedError(format!(
            "base64 seed has {} bytes, not {}",
            bytes.len(),
            BASE64_WORDS * 4
        )));
    }
    Ok(bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

fn hex_words(text: &str) -> Result<Vec<u32>, SeedError> {
    let words = text
        .split(',')
        .map(|w| {
            let w = w.trim();
            if w.is_empty() || w.len() > 8 {
                return Err(SeedError(format!(
                    "seed word {:?} is not 1-8 hex digits",
                    clip(w)
                )));
            }
            u32::from_str_radix(w, 16)
                .map_err(|_| SeedError(format!("seed word {:?} is not hex", clip(w))))
        })
        .collect::<Result<Vec<u32>, SeedError>>()?;
    Ok(words)
}

/// The random words of one game (`sha512-n288` forms) or of one hand (per-hand form).
pub struct Generator {
    mt: Mt,
    form: SeedForm,
}

impl Generator {
    /// A generator seeded with `seed`'s key by `init_by_array`.
    pub fn new(seed: &Seed) -> Generator {
        Generator {
            mt: Mt::new_with_key(seed.key.iter().copied()),
            form: seed.form,
        }
    }

    /// The next hand's 144 words (the per-hand form fills the first 137).
    pub fn next_hand(&mut self) -> [u32; RND_WORDS] {
        let mut rnd = [0u32; RND_WORDS];
        match self.form {
            SeedForm::PerHand => {
                for r in rnd.iter_mut().take(PER_HAND_WORDS) {
                    *r = self.mt.next_u32();
                }
            }
            SeedForm::Base64 | SeedForm::Hex => {
                // 9 blocks of 32 words: the 288 of the form's name.
                let mut block = [0u8; 128];
                for out in rnd.chunks_exact_mut(16) {
                    for chunk in block.chunks_exact_mut(4) {
                        chunk.copy_from_slice(&self.mt.next_u32().to_le_bytes());
                    }
                    sha512_words(&block, out);
                }
            }
        }
        rnd
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference MT19937 (`mt19937ar.c`, init_by_array({0x123, 0x234, 0x345, 0x456})):
    /// its published first outputs.
    #[test]
    fn mersenne_twister_matches_the_reference_outputs() {
        let mut mt = Mt::new_with_key([0x123u32, 0x234, 0x345, 0x456]);
        let first: Vec<u32> = (0..5).map(|_| mt.next_u32()).collect();
        assert_eq!(
            first,
            [1067595299, 955945823, 477289528, 4107218783, 4228976476]
        );
    }

    /// SHA-512 of "abc" (FIPS 180-2, appendix C.1), and the one-block digest of 128-byte
    /// messages equal to `sha2`'s hasher, word for word.
    #[test]
    fn sha512_matches_the_standard_vector() {
        use sha2::{Digest, Sha512};
        let d = Sha512::digest(b"abc");
        assert_eq!(&d[..8], &[0xdd, 0xaf, 0x35, 0xa1, 0x93, 0x61, 0x7a, 0xba]);
        assert_eq!(&d[56..], &[0x2a, 0x9a, 0xc9, 0x4f, 0xa5, 0x4c, 0xa4, 0x9f]);
        let mut mt = Mt::new(5489);
        for _ in 0..200 {
            let mut m = [0u8; 128];
            m.iter_mut().for_each(|b| *b = mt.next_u32() as u8);
            let mut words = [0u32; 16];
            sha512_words(&m, &mut words);
            let d = Sha512::digest(m);
            let want: Vec<u32> = d
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            assert_eq!(words[..], want[..]);
        }
    }

    /// Each form's name is the text before the seed's first comma.
    #[test]
    fn form_names_read_back() {
        for (form, words) in [
            (SeedForm::Base64, "AAAA".repeat(832)),
            (SeedForm::Hex, "1,2".to_string()),
            (SeedForm::PerHand, "3".to_string()),
        ] {
            let seed = Seed::parse(&format!("{},{words}", form.as_str())).unwrap();
            assert_eq!(seed.form, form);
        }
        assert_eq!(SeedForm::PerHand.as_str(), "mt19937ar");
    }

    #[test]
    fn parses_each_form_and_refuses_the_rest() {
        let hex = Seed::parse("mt19937ar-sha512-n288,00000000,0000000A,FFFFFFFF").unwrap();
        assert_eq!(hex.form, SeedForm::Hex);
        // Leading zero words stay: the key's length is part of the seed.
        assert_eq!(hex.key, [0, 10, u32::MAX]);
        let per_hand = Seed::parse("mt19937ar,1,2").unwrap();
        assert_eq!(
            (per_hand.form, per_hand.key),
            (SeedForm::PerHand, vec![1, 2])
        );
        let b64 = format!("mt19937ar-sha512-n288-base64,{}", "AAAA".repeat(832));
        let b64 = Seed::parse(&b64).unwrap();
        assert_eq!((b64.form, b64.key.len()), (SeedForm::Base64, 624));
        for bad in [
            "",
            "mt19937ar",
            "xorshift,1",
            "mt19937ar,",
            "mt19937ar,1,,2",
            "mt19937ar,123456789",
            "mt19937ar,12g",
            "mt19937ar-sha512-n288-base64,AAAA",
            "mt19937ar-sha512-n288-base64,@@@@",
        ] {
            assert!(Seed::parse(bad).is_err(), "{bad:?} parsed");
        }
        // Each error says what is wrong, quoting at most 40 characters of the culprit.
        let err = |text: &str| Seed::parse(text).unwrap_err().to_string();
        assert_eq!(err("mt19937ar"), "seed \"mt19937ar\" has no comma");
        assert_eq!(err("xorshift,1"), "unknown seed form \"xorshift\"");
        assert_eq!(err("mt19937ar,1,12g"), "seed word \"12g\" is not hex");
        assert_eq!(
            err("mt19937ar,1,,2"),
            "seed word \"\" is not 1-8 hex digits"
        );
        let long = "y".repeat(50);
        assert_eq!(
            err(&format!("{long},1")),
            format!("unknown seed form \"{}\"", "y".repeat(40))
        );
        assert_eq!(
            err("mt19937ar-sha512-n288-base64,AAAA"),
            "base64 seed has 3 bytes, not 2496"
        );
    }
}
