//! outward-lang: the language of a document's text, as an ISO 639-1 code and a score.
//!
//! Owns [`identify`]. The identifier is whatlang's trigram and script model (69 languages,
//! compiled in, nothing loaded at run time), chosen over lingua by the measurement in the
//! README (accuracy on the dev sets' `lang` labels, MB/s, binary size). Before it, a text
//! whose CJK characters outweigh its other letters (three each) is Chinese, Japanese or
//! Korean by script (dev `zh` pages 0.938 → 0.963 right, no language lower). And a text
//! that is English beyond doubt by its function words is English with score 1, without
//! whatlang (a million instructions a document, 18% of `outward run` on English pages, now
//! under 2%; on the 4,853 dev documents no language changes, 17 English scores rise to 1).
//!
//! Invariants: pure (no I/O, no globals written); reads at most [`MAX_BYTES`] of the text
//! (cut on a character boundary), so the cost per document is bounded whatever its length;
//! the code is ISO 639-1 where the language has one (ISO 639-3 otherwise); the score is in
//! `0..=1`; the same text always gives the same answer.

use whatlang::Lang;

/// Bytes of text read at most: the head of a long document says its language as well as the
/// whole (measured on dev, pages of 200+ characters: 0.994 of 4,688 right with the first 1 KB,
/// as with the first 4 KB or the whole text), at a bounded cost.
pub const MAX_BYTES: usize = 1024;

/// The language of a text.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Language {
    /// ISO 639-1 code (`en`, `de`, `zh`, `nb`), or ISO 639-3 for a language without one.
    pub code: &'static str,
    /// How sure the identifier is, `0..=1`.
    pub score: f64,
}

/// The language of `text` (its first [`MAX_BYTES`]), `None` when the text has no letters
/// to go by.
pub fn identify(text: &str) -> Option<Language> {
    let head = prefix(text, MAX_BYTES);
    if let Some(cjk) = cjk_language(head) {
        return Some(cjk);
    }
    if clearly_english(head) {
        return Some(Language {
            code: "en",
            score: 1.0,
        });
    }
    let info = whatlang::detect(head)?;
    let score = info.confidence();
    Some(Language {
        code: iso_639_1(info.lang()),
        score: if score.is_finite() {
            score.clamp(0.0, 1.0)
        } else {
            0.0
        },
    })
}

/// Letters of other scripts one CJK character weighs as: a Han character is about a word.
const CJK_CHAR_WEIGHT: usize = 3;

/// The language of a text whose CJK characters outweigh its other letters (`CJK_CHAR_WEIGHT`
/// each): Korean when Hangul leads, Japanese with kana among them, else Chinese. whatlang
/// judges by the script with the most characters, so a Chinese post with a few lines of code
/// or an English abstract was English. `None` when CJK does not lead (whatlang decides).
fn cjk_language(text: &str) -> Option<Language> {
    let (mut han, mut kana, mut hangul, mut other) = (0usize, 0usize, 0usize, 0usize);
    for c in text.chars() {
        // Below U+1100 no character is CJK: only the count of letters moves.
        if (c as u32) < 0x1100 {
            other += usize::from(c.is_alphabetic());
            continue;
        }
        match c as u32 {
            // The middle dot and the long-vowel mark appear in Chinese text too.
            0x30fb | 0x30fc => {}
            0x3040..=0x30ff | 0x31f0..=0x31ff | 0xff66..=0xff9f => kana += 1,
            0x1100..=0x11ff | 0x3130..=0x318f | 0xac00..=0xd7af => hangul += 1,
            0x3400..=0x4dbf | 0x4e00..=0x9fff | 0xf900..=0xfaff => han += 1,
            _ if c.is_alphabetic() => other += 1,
            _ => {}
        }
    }
    let cjk = han + kana + hangul;
    if cjk < 10 || cjk * CJK_CHAR_WEIGHT < other {
        return None;
    }
    let code = if hangul * 2 > cjk {
        "ko"
    } else if kana * 20 > cjk {
        "ja"
    } else {
        "zh"
    };
    let weighted = cjk * CJK_CHAR_WEIGHT;
    Some(Language {
        code,
        score: weighted as f64 / (weighted + other) as f64,
    })
}

/// Words a text needs before its function words decide it.
const MIN_WORDS: usize = 20;

/// Whether `text` is English beyond doubt by its function words: at least [`MIN_WORDS`]
/// words, at least a tenth of them English function words that other Latin-script
/// languages do not use as words ([`english_word`]), and at least four times as many of
/// those as of the commonest function words of the other languages ([`other_word`]).
/// whatlang compares a text's trigrams with every profile of its script, about a million
/// instructions per document whatever its length; English, the largest share of a crawl,
/// does not need that. On the dev sets this takes 93% of the pages whatlang calls English
/// (their whatlang confidence 0.99-1.0) and no page it calls anything else (a German
/// article quoting an English speech has 0.14 English words, and more German ones).
fn clearly_english(text: &str) -> bool {
    let (mut words, mut english, mut other) = (0usize, 0usize, 0usize);
    let mut lower = [0u8; 8];
    for word in text.split(|c: char| !c.is_alphabetic()) {
        if word.is_empty() {
            continue;
        }
        words += 1;
        if word.len() > lower.len() || !word.is_ascii() {
            continue;
        }
        let w = &mut lower[..word.len()];
        w.copy_from_slice(word.as_bytes());
        w.make_ascii_lowercase();
        if english_word(w) {
            english += 1;
        } else if other_word(w) {
            other += 1;
        }
    }
    words >= MIN_WORDS && english * 10 >= words && english >= 4 * other
}

/// English function words that are not common words of another Latin-script language
/// (`in`, `an`, `was`, `is`, `to`, `for`, `her`, `of`, `on`, `a` are: German, Dutch,
/// Scandinavian, Czech, French, Romance).
fn english_word(w: &[u8]) -> bool {
    matches!(
        w,
        b"the"
            | b"and"
            | b"that"
            | b"with"
            | b"this"
            | b"from"
            | b"have"
            | b"are"
            | b"were"
            | b"which"
            | b"you"
            | b"they"
            | b"their"
            | b"there"
            | b"be"
            | b"by"
            | b"not"
            | b"or"
            | b"but"
            | b"has"
            | b"had"
            | b"been"
            | b"would"
            | b"it"
            | b"its"
            | b"we"
            | b"our"
            | b"he"
            | b"she"
            | b"his"
    )
}

/// The commonest function words of German, French, Spanish, Portuguese, Italian, Dutch,
/// the Scandinavian languages and Polish.
fn other_word(w: &[u8]) -> bool {
    matches!(
        w,
        b"der"
            | b"die"
            | b"und"
            | b"das"
            | b"ist"
            | b"nicht"
            | b"mit"
            | b"den"
            | b"von"
            | b"sie"
            | b"ich"
            | b"ein"
            | b"eine"
            | b"auf"
            | b"le"
            | b"la"
            | b"les"
            | b"et"
            | b"est"
            | b"des"
            | b"une"
            | b"du"
            | b"pas"
            | b"que"
            | b"el"
            | b"los"
            | b"las"
            | b"del"
            | b"por"
            | b"con"
            | b"una"
            | b"para"
            | b"il"
            | b"di"
            | b"che"
            | b"della"
            | b"non"
            | b"het"
            | b"een"
            | b"van"
            | b"ook"
            | b"och"
            | b"att"
            | b"det"
            | b"og"
            | b"ikke"
            | b"jest"
            | b"nie"
    )
}

/// `text` cut to at most `max` bytes, on a character boundary.
pub fn prefix(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Names of languages in other code sets than ISO 639-1 and whatlang's ISO 639-3, mapped to
/// the code [`identify`] gives: the ISO 639-3 macrolanguages a user writes for Chinese,
/// Persian and Norwegian (whatlang's are `cmn`, `pes`, `nob`), Norwegian's 639-1 `no`, and
/// the ISO 639-2/B codes that differ from 639-3 (`ger`, `fre`, `chi`, …).
const ALIASES: &[(&str, &str)] = &[
    ("zho", "zh"),
    ("chi", "zh"),
    ("fas", "fa"),
    ("per", "fa"),
    ("nor", "nb"),
    ("no", "nb"),
    ("ger", "de"),
    ("fre", "fr"),
    ("dut", "nl"),
    ("cze", "cs"),
    ("gre", "el"),
    ("rum", "ro"),
    ("slo", "sk"),
    ("arm", "hy"),
    ("geo", "ka"),
    ("mac", "mk"),
    ("bur", "my"),
];

/// The code [`identify`] gives for the language a user names as `name`: an ISO 639-1 code
/// (`en`), an ISO 639-3 code (`eng`, as Common Crawl's `WARC-Identified-Content-Language`
/// writes it; `zho` or `cmn` for Chinese) or an ISO 639-2/B code (`ger`), in any case, with
/// spaces around it or a BCP 47 region or script after it (`en-US`, `zh_Hans`). `None` for a
/// code of no language the identifier knows.
pub fn language_code(name: &str) -> Option<&'static str> {
    let name = name.trim();
    let name = name
        .split(['-', '_'])
        .next()
        .unwrap_or(name)
        .to_ascii_lowercase();
    Lang::all()
        .iter()
        .find(|&&l| iso_639_1(l) == name || l.code() == name)
        .map(|&l| iso_639_1(l))
        .or_else(|| {
            ALIASES
                .iter()
                .find(|(alias, _)| *alias == name)
                .map(|&(_, code)| code)
        })
}

/// The ISO 639-3 code of a code [`identify`] gives, as Common Crawl writes it in
/// `WARC-Identified-Content-Language` (its CLD2 names macrolanguages: `zho` for Chinese, `fas`
/// for Persian, where whatlang says `cmn` and `pes`). `None` for a code it never gives.
pub fn iso_639_3(code: &str) -> Option<&'static str> {
    let lang = Lang::all().iter().find(|&&l| iso_639_1(l) == code)?;
    Some(match lang {
        Lang::Cmn => "zho",
        Lang::Pes => "fas",
        other => other.code(),
    })
}

/// The ISO 639-1 codes [`identify`] can give, sorted.
pub fn language_codes() -> Vec<&'static str> {
    let mut codes: Vec<&'static str> = Lang::all().iter().map(|&l| iso_639_1(l)).collect();
    codes.sort_unstable();
    codes
}

/// ISO 639-1 code of a whatlang language (every one of its 69 has one).
pub fn iso_639_1(lang: Lang) -> &'static str {
    match lang {
        Lang::Epo => "eo",
        Lang::Eng => "en",
        Lang::Rus => "ru",
        Lang::Cmn => "zh",
        Lang::Spa => "es",
        Lang::Por => "pt",
        Lang::Ita => "it",
        Lang::Ben => "bn",
        Lang::Fra => "fr",
        Lang::Deu => "de",
        Lang::Ukr => "uk",
        Lang::Kat => "ka",
        Lang::Ara => "ar",
        Lang::Hin => "hi",
        Lang::Jpn => "ja",
        Lang::Heb => "he",
        Lang::Yid => "yi",
        Lang::Pol => "pl",
        Lang::Amh => "am",
        Lang::Jav => "jv",
        Lang::Kor => "ko",
        Lang::Nob => "nb",
        Lang::Dan => "da",
        Lang::Swe => "sv",
        Lang::Fin => "fi",
        Lang::Tur => "tr",
        Lang::Nld => "nl",
        Lang::Hun => "hu",
        Lang::Ces => "cs",
        Lang::Ell => "el",
        Lang::Bul => "bg",
        Lang::Bel => "be",
        Lang::Mar => "mr",
        Lang::Kan => "kn",
        Lang::Ron => "ro",
        Lang::Slv => "sl",
        Lang::Hrv => "hr",
        Lang::Srp => "sr",
        Lang::Mkd => "mk",
        Lang::Lit => "lt",
        Lang::Lav => "lv",
        Lang::Est => "et",
        Lang::Tam => "ta",
        Lang::Vie => "vi",
        Lang::Urd => "ur",
        Lang::Tha => "th",
        Lang::Guj => "gu",
        Lang::Uzb => "uz",
        Lang::Pan => "pa",
        Lang::Aze => "az",
        Lang::Ind => "id",
        Lang::Tel => "te",
        Lang::Pes => "fa",
        Lang::Mal => "ml",
        Lang::Ori => "or",
        Lang::Mya => "my",
        Lang::Nep => "ne",
        Lang::Sin => "si",
        Lang::Khm => "km",
        Lang::Tuk => "tk",
        Lang::Aka => "ak",
        Lang::Zul => "zu",
        Lang::Sna => "sn",
        Lang::Afr => "af",
        Lang::Lat => "la",
        Lang::Slk => "sk",
        Lang::Cat => "ca",
        Lang::Tgl => "tl",
        Lang::Hye => "hy",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn language_codes_as_users_write_them() {
        for (name, code) in [
            ("en", "en"),
            ("EN", "en"),
            (" eng ", "en"),
            ("spa", "es"),
            ("zho", "zh"),
            ("cmn", "zh"),
            ("zh", "zh"),
            ("ger", "de"),
            ("deu", "de"),
            ("no", "nb"),
            ("pes", "fa"),
            ("en-US", "en"),
            ("zh_Hans", "zh"),
        ] {
            assert_eq!(language_code(name), Some(code), "{name}");
        }
        for name in ["xx", "", "english", "e", "-en", "xx-en"] {
            assert_eq!(language_code(name), None, "{name}");
        }
        let codes = language_codes();
        assert_eq!(codes.len(), 69);
        // And back, as Common Crawl writes them: every code has one, which maps home.
        for code in &codes {
            let three = iso_639_3(code).unwrap();
            assert_eq!(three.len(), 3, "{code}");
            assert_eq!(language_code(three), Some(*code), "{three}");
        }
        assert_eq!(iso_639_3("zh"), Some("zho"));
        assert_eq!(iso_639_3("en"), Some("eng"));
        assert_eq!(iso_639_3("xx"), None);
        assert!(codes.windows(2).all(|w| w[0] < w[1]));
        // Every alias names a language the identifier gives.
        for (alias, code) in ALIASES {
            assert!(codes.contains(code), "{alias} → {code}");
        }
    }

    fn code(text: &str) -> Option<&'static str> {
        identify(text).map(|l| l.code)
    }

    #[test]
    fn short_real_sentences() {
        let cases = [
            (
                "en",
                "The council voted on Tuesday to rebuild the old bridge over the river before winter.",
            ),
            (
                "de",
                "Der Gemeinderat hat am Dienstag beschlossen, die alte Brücke über den Fluss noch vor dem Winter neu zu bauen.",
            ),
            (
                "fr",
                "Le conseil municipal a décidé mardi de reconstruire le vieux pont sur la rivière avant l'hiver.",
            ),
            (
                "es",
                "El ayuntamiento decidió el martes reconstruir el viejo puente sobre el río antes del invierno.",
            ),
            ("zh", "市议会周二决定在冬天到来之前重建河上的那座旧桥。"),
            (
                "ja",
                "市議会は火曜日、冬が来る前に川に架かる古い橋を再建することを決めた。",
            ),
            (
                "ru",
                "Городской совет во вторник решил восстановить старый мост через реку до наступления зимы.",
            ),
            (
                "pl",
                "Rada miasta zdecydowała we wtorek, że stary most na rzece zostanie odbudowany przed zimą.",
            ),
        ];
        for (want, text) in cases {
            assert_eq!(code(text), Some(want), "{text}");
            let score = identify(text).unwrap().score;
            assert!((0.0..=1.0).contains(&score), "{score}");
        }
    }

    /// dev pages (magic_html, cwced_zh, 2026-11): a Chinese forum post whose code lines hold
    /// more Latin letters than it has Han characters, and a Chinese paper's page with its
    /// English abstract, were English.
    #[test]
    fn cjk_text_with_latin_lines_is_judged_by_weight() {
        let post = "请教一下关于开发者客栈添加新的功能的问题。我尝试在开发者客栈新添加一个功能，\
                    尝试新建一个页面，用于可视化数据库内的数据。\n\
                    public class TestController extends BaseController { return render(); }";
        assert_eq!(code(post), Some("zh"));
        let names = "约翰・史密斯是一位著名的作家，他的作品在世界各地广受欢迎，许多读者都很喜欢。";
        assert_eq!(code(names), Some("zh"));
        let ja = "これは日本語の文章です。東京の天気は今日とても良いので、公園を散歩しました。";
        assert_eq!(code(ja), Some("ja"));
        let ko =
            "오늘은 날씨가 아주 좋아서 공원에서 산책을 했습니다. 친구들과 함께 점심을 먹었어요.";
        assert_eq!(code(ko), Some("ko"));
        // A few Chinese words in an English sentence leave the decision to whatlang.
        let en = "The restaurant called 北京饭店 serves the best roast duck in the whole city, \
                  and the queue outside is long every evening of the week.";
        assert_eq!(code(en), Some("en"));
    }

    #[test]
    fn nothing_to_go_by() {
        assert_eq!(code(""), None);
        assert_eq!(code("1234 5678 -- !!"), None);
    }

    #[test]
    fn long_text_reads_a_bounded_prefix_on_a_char_boundary() {
        let text = "ü".repeat(MAX_BYTES); // 2 bytes each
        assert_eq!(prefix(&text, MAX_BYTES + 1).len(), MAX_BYTES);
        assert_eq!(prefix("abc", 10), "abc");
        let long = "Der Fluss ist kalt und tief, und die Brücke ist alt. ".repeat(1000);
        assert_eq!(code(&long), Some("de"));
    }

    #[test]
    fn english_by_its_function_words_and_not_a_german_text_quoting_english() {
        let english = "The council met on Monday and agreed that the new bridge, which has \
                       been planned for years, would open in the spring. It was not cheap, but \
                       they say it is worth it.";
        assert!(clearly_english(english));
        assert_eq!(
            identify(english),
            Some(Language {
                code: "en",
                score: 1.0
            })
        );
        // A German article that quotes an English speech: English words, more German ones.
        let german = "Am 14. Juni 2005 hielt Steve Jobs eine Rede vor den Absolventen der \
                      Stanford University. Er sagte: stay hungry, stay foolish, and trust that \
                      the dots will connect. Die Rede ist bis heute eine der bekanntesten, und \
                      sie wird oft zitiert, nicht nur in der Wirtschaft.";
        assert!(!clearly_english(german));
        assert_eq!(identify(german).map(|l| l.code), Some("de"));
        // Too few words to decide by function words: whatlang decides.
        assert!(!clearly_english("The cat and the dog."));
        // Names and code are not function words.
        assert!(!clearly_english(&"fn main let mut vec push ".repeat(10)));
    }
}
