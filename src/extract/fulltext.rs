//! `fulltext`: every visible text node of the page, in document order, one line per block.
//! The baseline method. Built on lol_html's streaming tokenizer (no tree).
//!
//! Invisible content is dropped: `head`, `script`, `style`, `noscript`, `template`, `svg`,
//! `iframe`, `textarea`, `select`, comments. Block-level elements and `<br>` end a line;
//! runs of whitespace fold to one space; empty lines are dropped.

use super::{ExtractStats, Extraction, Extractor, Method};
use lol_html::html_content::TextType;
use lol_html::{HtmlRewriter, Settings, doc_text, element, text};
use std::cell::RefCell;
use std::rc::Rc;

pub struct Fulltext;

/// Elements whose content is never shown as text.
const HIDDEN: &str =
    "head, script, style, noscript, template, svg, iframe, textarea, select, object";

/// Elements that start and end a line of text.
pub(crate) fn is_block(tag: &str) -> bool {
    matches!(
        tag,
        "address"
            | "article"
            | "aside"
            | "blockquote"
            | "br"
            | "caption"
            | "dd"
            | "details"
            | "dialog"
            | "div"
            | "dl"
            | "dt"
            | "fieldset"
            | "figcaption"
            | "figure"
            | "footer"
            | "form"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "header"
            | "hgroup"
            | "hr"
            | "li"
            | "main"
            | "nav"
            | "ol"
            | "p"
            | "pre"
            | "section"
            | "summary"
            | "table"
            | "tbody"
            | "td"
            | "tfoot"
            | "th"
            | "thead"
            | "title"
            | "tr"
            | "ul"
            | "body"
            | "html"
            | "center"
            | "menu"
            | "legend"
            | "option"
    )
}

#[derive(Default)]
struct State {
    text: String,
    line: String,
    title: String,
    hidden_depth: u32,
    in_title: bool,
    nodes: u64,
}

impl State {
    fn end_line(&mut self) {
        let trimmed = self.line.trim();
        if !trimmed.is_empty() {
            if !self.text.is_empty() {
                self.text.push('\n');
            }
            self.text.push_str(trimmed);
        }
        self.line.clear();
    }

    fn push_text(&mut self, chunk: &str) {
        for ch in chunk.chars() {
            if ch.is_whitespace() {
                if !self.line.is_empty() && !self.line.ends_with(' ') {
                    self.line.push(' ');
                }
            } else {
                self.line.push(ch);
            }
        }
    }
}

impl Extractor for Fulltext {
    fn method(&self) -> Method {
        Method::Fulltext
    }

    fn extract(&self, html: &str) -> Extraction {
        let state = Rc::new(RefCell::new(State::default()));
        let (s1, s2, s3) = (state.clone(), state.clone(), state.clone());
        let settings = Settings::new()
            .with_strict(false)
            .append_element_content_handler(element!(HIDDEN, |el| {
                state.borrow_mut().hidden_depth += 1;
                if let Some(handlers) = el.end_tag_handlers() {
                    let st = s1.clone();
                    let handler: lol_html::EndTagHandler<'static> = Box::new(move |_end| {
                        let mut s = st.borrow_mut();
                        s.hidden_depth = s.hidden_depth.saturating_sub(1);
                        Ok(())
                    });
                    handlers.push(handler);
                }
                Ok(())
            }))
            .append_element_content_handler(element!("title", |el| {
                state.borrow_mut().in_title = true;
                if let Some(handlers) = el.end_tag_handlers() {
                    let st = s2.clone();
                    let handler: lol_html::EndTagHandler<'static> = Box::new(move |_end| {
                        st.borrow_mut().in_title = false;
                        Ok(())
                    });
                    handlers.push(handler);
                }
                Ok(())
            }))
            .append_element_content_handler(element!("*", |el| {
                let block = is_block(&el.tag_name());
                let mut s = state.borrow_mut();
                s.nodes += 1;
                if block {
                    s.end_line();
                }
                drop(s);
                if block && let Some(handlers) = el.end_tag_handlers() {
                    let st = s3.clone();
                    let handler: lol_html::EndTagHandler<'static> = Box::new(move |_end| {
                        st.borrow_mut().end_line();
                        Ok(())
                    });
                    handlers.push(handler);
                }
                Ok(())
            }))
            .append_element_content_handler(text!("title", |t| {
                state.borrow_mut().title.push_str(t.as_str());
                Ok(())
            }))
            .append_document_content_handler(doc_text!(|t| {
                let mut s = state.borrow_mut();
                if t.text_type() != TextType::Data || s.hidden_depth > 0 || s.in_title {
                    return Ok(());
                }
                if t.last_in_text_node() {
                    s.nodes += 1;
                }
                s.push_text(&decode_entities_chunk(t.as_str()));
                Ok(())
            }));
        let mut rewriter = HtmlRewriter::new(settings, |_: &[u8]| {});
        // lol_html only fails on handler errors (ours never fail) or memory limits: keep what
        // was collected so far in either case.
        let _ = rewriter.write(html.as_bytes());
        let _ = rewriter.end();
        let mut s = state.take();
        s.end_line();
        let title = normalize_space(&decode_entities_chunk(&s.title));
        Extraction {
            text: s.text,
            title: (!title.is_empty()).then_some(title),
            stats: ExtractStats {
                nodes_parsed: s.nodes,
                nodes_total: s.nodes,
                bytes_touched: html.len() as u64,
            },
        }
    }
}

fn normalize_space(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// lol_html hands out raw text: decode the common entities. (Chunks may split an entity;
/// the loss is one entity at a chunk border.)
fn decode_entities_chunk(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains('&') {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let end = rest[1..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '#'))
            .map(|i| i + 1);
        let (name, consumed) = match end {
            Some(e) => (
                &rest[1..e],
                if rest[e..].starts_with(';') { e + 1 } else { e },
            ),
            None => (&rest[1..], rest.len()),
        };
        let decoded = match name {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            "nbsp" => Some(' '),
            _ if name.starts_with("#x") || name.starts_with("#X") => {
                u32::from_str_radix(&name[2..], 16)
                    .ok()
                    .and_then(char::from_u32)
            }
            _ if name.starts_with('#') => name[1..].parse::<u32>().ok().and_then(char::from_u32),
            _ => None,
        };
        match decoded {
            Some(c) => {
                out.push(c);
                rest = &rest[consumed..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_hidden_and_splits_blocks() {
        let html = "<html><head><title>T &amp; U</title><style>p{}</style></head><body>\
                    <p>Hello <b>big</b>\n world</p><script>var x='<p>no</p>';</script>\
                    <div>Second&nbsp;line</div><noscript>hidden</noscript></body></html>";
        let ex = Fulltext.extract(html);
        assert_eq!(ex.text, "Hello big world\nSecond line");
        assert_eq!(ex.title.as_deref(), Some("T & U"));
    }

    #[test]
    fn empty_page_gives_empty_text() {
        let ex = Fulltext.extract("<html><body>  </body></html>");
        assert_eq!(ex.text, "");
        assert_eq!(ex.title, None);
    }
}
