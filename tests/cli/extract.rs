//! `outward extract`: one page (a file or stdin) as text or JSON, charsets, Markdown and
//! `--url`, refused non-HTML bytes; several pages and directories as JSON lines.

use crate::common::{code, describe, outward, run, stdout, testdata, text};
use outward_testkit as testkit;
use serde_json::Value;
use std::io::Write;
use std::process::Stdio;

#[test]
fn extract_command() {
    let page = testdata().join("pages/en_news.html");
    let out = run(&["extract", "--method", "fulltext", page.to_str().unwrap()]);
    assert_eq!(code(&out), 0, "{}", describe(&out));
    let printed = stdout(&out);
    assert!(printed.contains("The Harbour Council voted nine to four on Thursday night"));
    assert!(!printed.contains("gtag("));
    assert!(!printed.contains("<p>"));

    // --json from stdin.
    let html = std::fs::read(testdata().join("pages/zh_news_utf8.html")).unwrap();
    let mut child = outward()
        .args(["extract", "--json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&html).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(code(&out), 0, "{}", describe(&out));
    let line = stdout(&out);
    assert_eq!(line.lines().count(), 1);
    let doc: Value = serde_json::from_str(line.trim_end()).unwrap();
    assert!(text(&doc).contains("滨江图书馆昨天正式向市民开放"));
    assert_eq!(doc["metadata"]["charset"], "UTF-8");
    assert_eq!(doc["metadata"]["extractor"], "reverse-stage");
    // Methods may trim the site name off the title, never the headline.
    let title = doc["metadata"]["title"].as_str().unwrap();
    assert!(
        title.starts_with("滨江图书馆正式开放 市民排队入馆"),
        "{title}"
    );

    // A legacy-encoded file without any declaration is detected.
    let tmp = tempfile::tempdir().unwrap();
    let gbk = tmp.path().join("gbk.html");
    let source = std::fs::read_to_string(testdata().join("pages/zh_gbk_nodecl.html")).unwrap();
    std::fs::write(&gbk, testkit::encode_as(&source, "gbk")).unwrap();
    let out = run(&["extract", "--json", gbk.to_str().unwrap()]);
    assert_eq!(code(&out), 0, "{}", describe(&out));
    let doc: Value = serde_json::from_str(stdout(&out).trim_end()).unwrap();
    assert!(text(&doc).contains("今年春茶的采摘比往年提前了十天"));
    assert_eq!(doc["metadata"]["charset"], "GBK");

    // --format markdown keeps the structure; --url reaches the document.
    let article = testdata().join("extract/en_article.html");
    let out = run(&[
        "extract",
        "--json",
        "--format",
        "markdown",
        "--url",
        "https://news.example/rivers",
        article.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 0, "{}", describe(&out));
    let doc: Value = serde_json::from_str(stdout(&out).trim_end()).unwrap();
    let md = text(&doc);
    assert!(md.starts_with("# Rivers of the North"), "{md}");
    assert!(md.contains("\n\n## Why it matters\n\n"), "{md}");
    assert!(md.contains("\n- Salmon runs fell by a third"), "{md}");
    assert_eq!(doc["metadata"]["url"], "https://news.example/rivers");

    // A missing file is an error, not a crash.
    let out = run(&["extract", "/nonexistent/page.html"]);
    assert_ne!(code(&out), 0);

    // Bytes that are not HTML or text (a PNG, random bytes) are refused, not printed as
    // mojibake; a legacy-encoded page with a few stray control bytes is still text.
    let png = tmp.path().join("image.png");
    std::fs::write(&png, testkit::PNG_1X1).unwrap();
    let mut rng = testkit::SplitMix64::new(7);
    let noise = tmp.path().join("noise.bin");
    std::fs::write(
        &noise,
        (0..20_000)
            .map(|_| rng.next_u64() as u8)
            .collect::<Vec<_>>(),
    )
    .unwrap();
    for path in [&png, &noise] {
        let out = run(&["extract", path.to_str().unwrap()]);
        assert_eq!(code(&out), 1, "{}", describe(&out));
        assert!(stdout(&out).is_empty(), "{}", describe(&out));
        assert!(String::from_utf8_lossy(&out.stderr).contains("not HTML or text"));
    }
    let stray = tmp.path().join("stray.html");
    let mut page = std::fs::read(testdata().join("pages/en_news.html")).unwrap();
    page.extend_from_slice(b"\x01\x02<p>tail</p>");
    std::fs::write(&stray, page).unwrap();
    let out = run(&["extract", stray.to_str().unwrap()]);
    assert_eq!(code(&out), 0, "{}", describe(&out));
}

#[test]
fn extract_several_pages_and_directories_writes_jsonl() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    std::fs::create_dir_all(site.join("news")).unwrap();
    std::fs::copy(
        testdata().join("pages/en_news.html"),
        site.join("news/a.html"),
    )
    .unwrap();
    std::fs::copy(
        testdata().join("pages/zh_news_utf8.html"),
        site.join("b.HTM"),
    )
    .unwrap();
    std::fs::write(site.join("notes.txt"), "not a page").unwrap();
    std::fs::write(site.join("broken.html"), testkit::PNG_1X1).unwrap();
    let single = testdata().join("extract/en_article.html");

    // A directory (every .html/.htm/.xhtml below it, sorted) and a file: one document per
    // line in that order; the page that is not HTML is named and counted, the others written.
    let out = run(&["extract", site.to_str().unwrap(), single.to_str().unwrap()]);
    assert_eq!(code(&out), 1, "{}", describe(&out));
    let docs: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let ids: Vec<String> = docs
        .iter()
        .map(|d| {
            d["id"]
                .as_str()
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(
        ids,
        ["b.HTM", "a.html", "en_article.html"],
        "{}",
        describe(&out)
    );
    assert!(text(&docs[0]).contains("滨江图书馆昨天正式向市民开放"));
    assert!(text(&docs[1]).contains("The Harbour Council voted nine to four"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("broken.html: not HTML or text"), "{err}");
    assert!(err.contains("4 pages, 3 written, 1 failed"), "{err}");
    // The same page alone with --json is the same document.
    let alone = run(&["extract", "--json", single.to_str().unwrap()]);
    assert_eq!(stdout(&alone).lines().next(), stdout(&out).lines().nth(2));

    // Nothing to read, or --url for several pages: usage errors.
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let out = run(&["extract", empty.to_str().unwrap()]);
    assert_eq!(code(&out), 2, "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no .html, .htm or .xhtml file"));
    let out = run(&[
        "extract",
        "--url",
        "https://x.example/",
        site.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 2, "{}", describe(&out));
}
