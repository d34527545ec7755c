//! Golden extraction tests on hand-written pages in `testdata/extract/`: exact main text
//! where the page is unambiguous, otherwise body lines present and boilerplate absent.

use outward_core::{ExtractOptions, Extraction, methods};

fn page(name: &str) -> String {
    let p = outward_testkit::repo_root()
        .join("testdata/extract")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn reverse(name: &str) -> Extraction {
    methods::build("reverse", &ExtractOptions::default())
        .unwrap()
        .extract_html(&page(name))
}

fn paper(name: &str) -> Extraction {
    methods::build("paper", &ExtractOptions::default())
        .unwrap()
        .extract_html(&page(name))
}

fn assert_lines(text: &str, present: &[&str], absent: &[&str]) {
    let lines: Vec<&str> = text.lines().collect();
    for p in present {
        assert!(lines.contains(p), "missing line {p:?} in:\n{text}");
    }
    for a in absent {
        assert!(!text.contains(a), "boilerplate {a:?} in:\n{text}");
    }
}

#[test]
fn english_article() {
    let ex = reverse("en_article.html");
    assert_eq!(
        ex.text(),
        "Rivers of the North Are Warming Faster\n\
         By Ada Example, March 3, 2024\n\
         Scientists measuring river temperatures across northern Europe found that the water is \
         warming twice as fast as the air above it, a result that surprised the team.\n\
         The study, published on Tuesday, followed 120 rivers for thirty years. \u{201c}We \
         expected the opposite,\u{201d} said the lead author, who asked that the data be shared \
         widely.\n\
         Why it matters\n\
         Warmer rivers hold less oxygen, which stresses fish such as salmon and trout. Several \
         populations have already declined, according to the national report.\n\
         Salmon runs fell by a third since 1990.\n\
         Trout moved upstream by twelve kilometres on average.\n\
         The authors call for shade trees along the banks, which cool the water cheaply and \
         quickly."
    );
    assert_eq!(
        ex.title.as_deref(),
        Some("Rivers of the North Are Warming Faster")
    );
    assert!(ex.stats.nodes_parsed < ex.stats.nodes_total);
}

#[test]
fn chinese_article() {
    let ex = reverse("zh_article.html");
    assert_lines(
        ex.text(),
        &[
            "北京迎来今年首场降雪",
            "本报讯 昨天夜间，北京迎来今年入冬以来的首场降雪，城区大部分地区出现小到中雪。",
            "据了解，环卫部门已提前部署除雪工作，出动作业车辆一千余台，确保主要道路畅通。",
        ],
        &[
            "首页",
            "相关新闻",
            "天津发布道路结冰预警",
            "热门排行",
            "版权所有",
        ],
    );
    assert_eq!(ex.title.as_deref(), Some("北京迎来今年首场降雪"));
}

#[test]
fn table_layout() {
    let ex = reverse("table_layout.html");
    assert_lines(
        ex.text(),
        &[
            "Growing tomatoes on a balcony",
            "In autumn, pick the green fruits that remain; they ripen indoors on a sunny windowsill.",
        ],
        &["Home", "Contact"],
    );
    assert_eq!(ex.title.as_deref(), Some("Old School Layout"));
}

#[test]
fn comment_section_is_left_out() {
    let ex = reverse("comments.html");
    assert_eq!(
        ex.text(),
        "How I fixed my bike\n\
         Last week the chain of my old bike kept slipping, so I decided to repair it myself \
         instead of paying a shop.\n\
         First I cleaned the chain with a brush and some degreaser. Then I measured it with a \
         ruler and found it had stretched by almost one percent.\n\
         A new chain cost twelve euros. Fitting it took twenty minutes, and the bike now shifts \
         perfectly again."
    );
}

#[test]
fn page_without_main_text() {
    let ex = reverse("link_lists_only.html");
    assert_eq!(ex.text(), "");
    assert_eq!(ex.title.as_deref(), Some("Site map"));
}

#[test]
fn broken_markup() {
    let ex = reverse("broken_markup.html");
    assert_lines(
        ex.text(),
        &[
            "The council met on Monday evening to discuss the new park.",
            "Residents said the plan was too expensive, but most of them supported the idea of \
             more trees.",
        ],
        &["Contact the council"],
    );
}

#[test]
fn paper_method_finds_the_article_body() {
    // The paper's method: LCA of the two longest text nodes, no pruning.
    let ex = paper("en_article.html");
    assert!(
        ex.text()
            .contains("Scientists measuring river temperatures")
    );
    assert!(ex.text().contains("Warmer rivers hold less oxygen"));
    assert!(!ex.text().contains("Ten cats that look like bread"));
    assert!(ex.stats.nodes_parsed < ex.stats.nodes_total);
}
