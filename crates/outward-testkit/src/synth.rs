//! The synthetic corpus ([`synthetic_warc`], [`synthetic_warc_gz`], [`synthetic_warc_plain`],
//! [`big_records_warc`]): realistic article pages ([`article_html`]: head with
//! title/meta/script/style, nav, article body, sidebar, comments, footer; sizes spread
//! log-uniformly, some Chinese pages in GBK) mixed like a Common Crawl file with requests,
//! metadata, non-HTML responses, 404s, redirects and revisits.

use crate::codings::encode_as;
use crate::http::{BodyCoding, HttpResponse};
use crate::rng::SplitMix64;
use crate::warc::{Compression, RecordInfo, WarcWriter};

const WORDS: &[&str] = &[
    "the",
    "of",
    "and",
    "to",
    "in",
    "a",
    "is",
    "that",
    "for",
    "it",
    "as",
    "was",
    "with",
    "be",
    "by",
    "on",
    "not",
    "he",
    "this",
    "are",
    "or",
    "his",
    "from",
    "at",
    "which",
    "but",
    "have",
    "an",
    "had",
    "they",
    "you",
    "were",
    "their",
    "one",
    "all",
    "we",
    "can",
    "her",
    "has",
    "there",
    "been",
    "if",
    "more",
    "when",
    "will",
    "would",
    "who",
    "so",
    "no",
    "council",
    "river",
    "harbour",
    "budget",
    "station",
    "school",
    "market",
    "village",
    "report",
    "museum",
    "library",
    "festival",
    "railway",
    "bridge",
    "farmers",
    "weather",
    "season",
    "visitors",
    "residents",
    "engineers",
    "students",
    "researchers",
    "committee",
    "project",
    "proposal",
    "results",
    "survey",
    "winter",
    "summer",
    "morning",
    "evening",
    "history",
    "century",
    "community",
    "volunteers",
    "company",
    "workers",
    "government",
    "minister",
    "election",
    "policy",
    "energy",
    "water",
    "coast",
    "mountain",
    "forest",
    "island",
    "garden",
    "kitchen",
    "recipe",
    "bread",
    "coffee",
    "football",
    "match",
    "season",
    "league",
    "coach",
    "players",
    "hospital",
    "doctors",
    "patients",
    "software",
    "network",
    "computer",
    "database",
    "study",
    "measured",
    "announced",
    "reported",
    "explained",
    "described",
    "opened",
    "closed",
    "built",
    "repaired",
    "planned",
    "delayed",
    "approved",
    "rejected",
    "increased",
    "reduced",
    "moved",
    "collected",
    "published",
    "carefully",
    "quickly",
    "slowly",
    "finally",
    "recently",
    "already",
    "nearly",
    "almost",
    "local",
    "national",
    "regional",
    "public",
    "private",
    "new",
    "old",
    "small",
    "large",
    "early",
    "late",
    "quiet",
    "busy",
    "important",
    "difficult",
    "simple",
    "careful",
    "annual",
    "monthly",
    "weekly",
    "northern",
    "southern",
    "eastern",
    "western",
    "central",
    "twelve",
    "three",
    "seven",
    "hundred",
    "thousand",
    "percent",
];

const ZH_WORDS: &[&str] = &[
    "我们",
    "城市",
    "发展",
    "经济",
    "社会",
    "文化",
    "教育",
    "学生",
    "老师",
    "学校",
    "政府",
    "公司",
    "市场",
    "技术",
    "研究",
    "科学",
    "医院",
    "医生",
    "病人",
    "交通",
    "铁路",
    "公路",
    "河流",
    "山区",
    "农村",
    "农民",
    "粮食",
    "天气",
    "今年",
    "去年",
    "明年",
    "记者",
    "报道",
    "表示",
    "认为",
    "介绍",
    "提高",
    "增加",
    "减少",
    "建设",
    "完成",
    "开始",
    "继续",
    "重要",
    "问题",
    "工作",
    "生活",
    "居民",
    "游客",
    "旅游",
    "历史",
    "博物馆",
    "图书馆",
    "活动",
    "环境",
    "保护",
    "能源",
    "水平",
    "质量",
    "服务",
    "管理",
    "计划",
    "项目",
    "投资",
    "企业",
    "产品",
    "价格",
    "网络",
    "数据",
    "系统",
    "已经",
    "正在",
    "非常",
    "主要",
    "部分",
    "全国",
    "地区",
    "北京",
    "上海",
    "广州",
    "春天",
    "夏天",
    "秋天",
    "冬天",
    "早上",
    "晚上",
    "朋友",
    "家庭",
    "孩子",
    "老人",
    "健康",
    "安全",
    "方面",
    "情况",
    "变化",
    "影响",
    "进行",
    "通过",
];

fn sentence(rng: &mut SplitMix64, out: &mut String) {
    let n = rng.range(8, 24);
    for i in 0..n {
        let w = *rng.pick(WORDS);
        if i == 0 {
            let mut cs = w.chars();
            if let Some(c) = cs.next() {
                out.extend(c.to_uppercase());
                out.push_str(cs.as_str());
            }
        } else {
            out.push(' ');
            out.push_str(w);
            if i + 1 < n && rng.chance(1, 12) {
                out.push(',');
            }
        }
    }
    out.push('.');
}

fn zh_sentence(rng: &mut SplitMix64, out: &mut String) {
    let n = rng.range(8, 20);
    for i in 0..n {
        out.push_str(rng.pick::<&str>(ZH_WORDS));
        if i + 1 < n && rng.chance(1, 8) {
            out.push('，');
        }
    }
    out.push('。');
}

fn words(rng: &mut SplitMix64, lo: usize, hi: usize, zh: bool) -> String {
    let mut s = String::new();
    for i in 0..rng.range(lo, hi) {
        if zh {
            s.push_str(rng.pick::<&str>(ZH_WORDS));
        } else {
            if i > 0 {
                s.push(' ');
            }
            s.push_str(rng.pick::<&str>(WORDS));
        }
    }
    s
}

fn paragraph(rng: &mut SplitMix64, zh: bool) -> String {
    let mut p = String::new();
    for i in 0..rng.range(2, 6) {
        if zh {
            zh_sentence(rng, &mut p);
        } else {
            if i > 0 {
                p.push(' ');
            }
            sentence(rng, &mut p);
        }
    }
    p
}

/// Language of a synthetic page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    En,
    Zh,
}

/// A realistic article page of roughly `target` bytes (UTF-8): head with title, meta, a large
/// inline script and style, nav with link lists, the article (h1, `<p>`, `<h2>`, `<ul>`), a
/// sidebar, a comments section and a footer. The article's first sentence is returned too, so
/// tests can look for it.
pub fn article_html(rng: &mut SplitMix64, target: usize, lang: Lang) -> (String, String) {
    let zh = lang == Lang::Zh;
    let title = words(rng, 3, 8, zh);
    let mut h = String::with_capacity(target + 4096);
    h.push_str("<!DOCTYPE html>\n<html lang=\"");
    h.push_str(if zh { "zh-CN" } else { "en" });
    h.push_str("\">\n<head>\n");
    if zh && rng.chance(1, 2) {
        // Half of the Chinese pages declare a charset in <meta>; the caller decides the bytes.
        h.push_str("<meta charset=\"utf-8\">\n");
    } else if !zh {
        h.push_str("<meta charset=\"utf-8\">\n");
    }
    h.push_str("<title>");
    h.push_str(&title);
    h.push_str(" | The Daily Example</title>\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"description\" content=\"");
    h.push_str(&words(rng, 10, 20, zh));
    h.push_str("\">\n<link rel=\"stylesheet\" href=\"/static/site.css\">\n<style>\n");
    for i in 0..rng.range(20, 60) {
        h.push_str(&format!(
            ".c{i} {{ margin: {}px {}px; color: #{:06x}; font-size: {}px; }}\n",
            rng.below(40),
            rng.below(40),
            rng.below(0xffffff),
            rng.range(10, 30)
        ));
    }
    h.push_str("</style>\n<script>\nwindow.dataLayer = window.dataLayer || [];\n");
    let script_bytes = target / rng.range(5, 12);
    while h.len() < script_bytes {
        h.push_str(&format!(
            "dataLayer.push({{event: \"view_{}\", id: {}, section: \"{}\"}});\n",
            rng.below(1000),
            rng.next_u64() % 100_000,
            rng.pick(WORDS)
        ));
    }
    h.push_str("</script>\n</head>\n<body class=\"article-page\">\n<header class=\"site-header\"><a class=\"logo\" href=\"/\">The Daily Example</a>\n<nav class=\"main-nav\"><ul>\n");
    for _ in 0..rng.range(8, 25) {
        let w = words(rng, 1, 2, zh);
        h.push_str(&format!(
            "<li><a href=\"/section/{}\">{w}</a></li>\n",
            rng.below(500)
        ));
    }
    h.push_str("</ul></nav></header>\n<main>\n<article class=\"story\">\n<h1>");
    h.push_str(&title);
    h.push_str("</h1>\n<p class=\"byline\">");
    h.push_str(&words(rng, 2, 4, zh));
    h.push_str("</p>\n");
    let first = paragraph(rng, zh);
    h.push_str("<p>");
    h.push_str(&first);
    h.push_str("</p>\n");
    let body_target = h.len() + target * 2 / 5;
    while h.len() < body_target {
        match rng.below(8) {
            0 => {
                h.push_str("<h2>");
                h.push_str(&words(rng, 3, 7, zh));
                h.push_str("</h2>\n");
            }
            1 => {
                h.push_str("<ul>\n");
                for _ in 0..rng.range(2, 6) {
                    h.push_str("<li>");
                    h.push_str(&words(rng, 4, 12, zh));
                    h.push_str("</li>\n");
                }
                h.push_str("</ul>\n");
            }
            2 => {
                h.push_str("<figure><img src=\"/img/");
                h.push_str(&rng.below(100_000).to_string());
                h.push_str(".jpg\" alt=\"\"><figcaption>");
                h.push_str(&words(rng, 4, 10, zh));
                h.push_str("</figcaption></figure>\n");
            }
            _ => {
                h.push_str("<p>");
                h.push_str(&paragraph(rng, zh));
                h.push_str("</p>\n");
            }
        }
    }
    h.push_str("</article>\n<aside class=\"sidebar\"><h3>");
    h.push_str(if zh { "热门文章" } else { "Most read" });
    h.push_str("</h3><ol>\n");
    for _ in 0..rng.range(5, 10) {
        h.push_str(&format!(
            "<li><a href=\"/story/{}\">{}</a></li>\n",
            rng.below(100_000),
            words(rng, 4, 9, zh)
        ));
    }
    h.push_str("</ol></aside>\n<section class=\"comments\"><h3>");
    h.push_str(if zh { "评论" } else { "Comments" });
    h.push_str("</h3>\n");
    let comments_target = h.len() + target / 8;
    while h.len() < comments_target {
        h.push_str(&format!(
            "<div class=\"comment\"><span class=\"author\">user{}</span><p>{}</p><a class=\"reply\" href=\"#c{}\">Reply</a></div>\n",
            rng.below(10_000),
            paragraph(rng, zh),
            rng.below(10_000)
        ));
    }
    h.push_str("</section>\n</main>\n<footer class=\"site-footer\"><ul>\n");
    while h.len() + 40 < target {
        h.push_str(&format!(
            "<li><a href=\"/archive/{}\">{}</a></li>\n",
            rng.below(100_000),
            words(rng, 1, 3, zh)
        ));
    }
    h.push_str("</ul><p>&copy; 2024 The Daily Example</p></footer>\n</body>\n</html>\n");
    (h, first)
}

/// Settings of [`synthetic_warc`].
#[derive(Debug, Clone)]
pub struct SynthOptions {
    /// HTML article responses (HTTP 200) in the file; the other records come on top.
    pub pages: usize,
    /// Page sizes are log-uniform in `min_bytes..=max_bytes`.
    pub min_bytes: usize,
    pub max_bytes: usize,
    pub compression: Compression,
    /// One page in `zh_every` is Chinese (half of those GBK-encoded); 0 for none.
    pub zh_every: usize,
    /// Add requests, metadata, non-HTML, 404s, redirects and revisits like a Common Crawl file.
    pub crawl_mix: bool,
    /// One page in `coded_every` is stored chunked+gzip / br / deflate; 0 for none.
    pub coded_every: usize,
}

impl Default for SynthOptions {
    fn default() -> Self {
        SynthOptions {
            pages: 100,
            min_bytes: 20 << 10,
            max_bytes: 300 << 10,
            compression: Compression::Gzip,
            zh_every: 7,
            crawl_mix: true,
            coded_every: 20,
        }
    }
}

/// A generated WARC file and its record table.
#[derive(Debug, Clone)]
pub struct SynthWarc {
    pub bytes: Vec<u8>,
    pub records: Vec<RecordInfo>,
    /// Bytes of (decoded, UTF-8 or legacy) HTML in the pages meant to become documents.
    pub html_bytes: u64,
}

impl SynthWarc {
    /// Ids of the records that should become documents, in file order.
    pub fn expected_doc_ids(&self) -> Vec<String> {
        self.records
            .iter()
            .filter(|r| r.expect_doc)
            .map(|r| r.id.clone())
            .collect()
    }
}

/// A tiny valid 1x1 PNG.
pub const PNG_1X1: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
    0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x00, 0x01, 0x00, 0x00,
    0x05, 0x00, 0x01, 0x0d, 0x0a, 0x2d, 0xb4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae,
    0x42, 0x60, 0x82,
];

/// A Common-Crawl-like WARC file of synthetic pages (see [`SynthOptions`]).
pub fn synthetic_warc(seed: u64, options: &SynthOptions) -> SynthWarc {
    let mut rng = SplitMix64::new(seed);
    let mut w = WarcWriter::new(options.compression, seed);
    w.warcinfo(&format!(
        "synthetic-{seed}{}",
        options.compression.extension()
    ));
    let mut html_bytes = 0u64;
    // Earlier captures a revisit may refer to: (uri, id, date, http).
    let mut captured: Vec<(String, String, String, HttpResponse)> = Vec::new();
    for page in 0..options.pages {
        let host = format!("www.site{}.example", rng.below(40));
        let uri = format!("https://{host}/news/{seed}/{page}-{}.html", rng.below(1000));
        if options.crawl_mix {
            // Non-HTML captures and error pages between the articles.
            if rng.chance(1, 8) {
                let (ct, body): (&str, Vec<u8>) = match rng.below(3) {
                    0 => ("image/png", PNG_1X1.to_vec()),
                    1 => (
                        "text/css",
                        b"body{margin:0;font-family:Georgia,serif}\n.nav{display:flex}\n".to_vec(),
                    ),
                    _ => (
                        "application/pdf",
                        b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n".to_vec(),
                    ),
                };
                let u = format!("https://{host}/static/{}", rng.below(100_000));
                w.request(&u);
                w.response(
                    &u,
                    &HttpResponse::new(200, Some(ct), &body, BodyCoding::Identity),
                );
            }
            if rng.chance(1, 12) {
                let u = format!("https://{host}/missing/{}", rng.below(100_000));
                w.request(&u);
                w.response(
                    &u,
                    &HttpResponse::new(
                        404,
                        Some("text/html"),
                        b"<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1><p>The page you requested does not exist.</p></body></html>",
                        BodyCoding::Identity,
                    ),
                );
            }
            if rng.chance(1, 15) {
                let u = format!("http://{host}/r/{}", rng.below(100_000));
                w.request(&u);
                w.response(
                    &u,
                    &HttpResponse::new(301, Some("text/html"), b"", BodyCoding::Identity)
                        .header("Location", &uri),
                );
            }
            if !captured.is_empty() && rng.chance(1, 10) {
                let (u, id, date, http) = captured[rng.below(captured.len())].clone();
                w.request(&u);
                w.revisit(&u, &id, &date, &http);
            }
        }
        let zh = options.zh_every > 0 && page % options.zh_every == options.zh_every - 1;
        let gbk = zh && rng.chance(1, 2);
        let size = rng.log_uniform(options.min_bytes, options.max_bytes);
        let (mut html, _) = article_html(&mut rng, size, if zh { Lang::Zh } else { Lang::En });
        let (body, ct) = if gbk {
            // GBK pages: no declaration anywhere (the meta, if any, says nothing).
            html = html.replace("<meta charset=\"utf-8\">\n", "");
            (encode_as(&html, "gbk"), "text/html")
        } else {
            (html.into_bytes(), "text/html; charset=utf-8")
        };
        html_bytes += body.len() as u64;
        let coding = if options.coded_every > 0 && page % options.coded_every == 1 {
            *rng.pick(&[BodyCoding::ChunkedGzip, BodyCoding::Br, BodyCoding::Deflate])
        } else {
            BodyCoding::Identity
        };
        let http = HttpResponse::new(200, Some(ct), &body, coding);
        if options.crawl_mix {
            w.request(&uri);
        }
        let id = w.response(&uri, &http);
        w.expect_doc();
        if options.crawl_mix {
            w.metadata(&uri, &id, rng.range(20, 2000) as u64);
            if captured.len() < 64 {
                let date = WarcWriter::date_of(w.records().len() - 2);
                captured.push((uri.clone(), id, date, http.clone()));
            }
        }
    }
    let (bytes, records) = w.finish();
    SynthWarc {
        bytes,
        records,
        html_bytes,
    }
}

/// `pages` synthetic pages (20-300 KB, Common Crawl mix) as gzip-per-record `.warc.gz` bytes.
pub fn synthetic_warc_gz(seed: u64, pages: usize) -> Vec<u8> {
    synthetic_warc(
        seed,
        &SynthOptions {
            pages,
            ..SynthOptions::default()
        },
    )
    .bytes
}

/// Like [`synthetic_warc_gz`] but an uncompressed `.warc`.
pub fn synthetic_warc_plain(seed: u64, pages: usize) -> Vec<u8> {
    synthetic_warc(
        seed,
        &SynthOptions {
            pages,
            compression: Compression::None,
            ..SynthOptions::default()
        },
    )
    .bytes
}

/// A plain `.warc` with one HTML response per entry of `sizes` (bytes), for memory tests.
/// Each page is an article padded with paragraphs to its size.
pub fn big_records_warc(seed: u64, sizes: &[usize]) -> SynthWarc {
    let mut rng = SplitMix64::new(seed);
    let mut w = WarcWriter::new(Compression::None, seed);
    w.warcinfo("big.warc");
    let mut html_bytes = 0;
    // One paragraph block reused to pad: generation speed matters more than variety here.
    let mut filler = String::new();
    for _ in 0..64 {
        filler.push_str("<p>");
        filler.push_str(&paragraph(&mut rng, false));
        filler.push_str("</p>\n");
    }
    for (i, &size) in sizes.iter().enumerate() {
        let (head, _) = article_html(&mut rng, 30 << 10, Lang::En);
        let cut = head.rfind("</body>").unwrap_or(head.len());
        let mut html = String::with_capacity(size + filler.len());
        html.push_str(&head[..cut]);
        html.push_str("<div class=\"archive\">\n");
        while html.len() + filler.len() + 30 < size {
            html.push_str(&filler);
        }
        html.push_str("</div>\n</body>\n</html>\n");
        while html.len() < size {
            html.push('\n');
        }
        html_bytes += html.len() as u64;
        let uri = format!("https://big.example/page/{i}");
        w.response(&uri, &HttpResponse::html(&html));
        w.expect_doc();
    }
    let (bytes, records) = w.finish();
    SynthWarc {
        bytes,
        records,
        html_bytes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn synthetic_is_deterministic() {
        let a = synthetic_warc_gz(42, 6);
        let b = synthetic_warc_gz(42, 6);
        assert_eq!(a, b);
        assert_ne!(a, synthetic_warc_gz(43, 6));
    }

    #[test]
    fn gzip_members_are_one_per_record_and_decode() {
        let synth = synthetic_warc(
            5,
            &SynthOptions {
                pages: 5,
                min_bytes: 2000,
                max_bytes: 4000,
                ..SynthOptions::default()
            },
        );
        // Each record's byte range is one complete gzip member holding one WARC record.
        for r in &synth.records {
            let member = &synth.bytes[r.start as usize..r.end as usize];
            let mut text = Vec::new();
            flate2::read::GzDecoder::new(member)
                .read_to_end(&mut text)
                .unwrap();
            assert!(text.starts_with(b"WARC/1.0\r\n"));
            assert!(text.ends_with(b"\r\n\r\n"));
            let head_end = text.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
            let head = std::str::from_utf8(&text[..head_end]).unwrap();
            let len: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("Content-Length: "))
                .unwrap()
                .parse()
                .unwrap();
            assert_eq!(text.len(), head_end + 4 + len + 4, "{head}");
            assert!(head.contains(&format!("WARC-Record-ID: {}", r.id)));
        }
        assert_eq!(synth.expected_doc_ids().len(), 5);
        assert_eq!(synth.records[0].warc_type, "warcinfo");
        let whole_len: u64 = synth.records.last().unwrap().end;
        assert_eq!(whole_len as usize, synth.bytes.len());
    }

    #[test]
    fn big_records_have_requested_sizes() {
        let w = big_records_warc(1, &[100_000, 250_000]);
        assert_eq!(w.html_bytes, 350_000);
        assert_eq!(w.expected_doc_ids().len(), 2);
    }
}
