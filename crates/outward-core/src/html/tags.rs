//! Tag names: interning of the HTML tag names the extractor cares about into a one-byte
//! [`Tag`], and the read-only properties of each (void, block, removed, raw text).
//!
//! Invariants: [`Tag::from_name`] expects a lowercased name; every unknown name maps to
//! [`Tag::Other`] (callers keep the name bytes when they need to tell unknown tags apart).

/// Known tag names. `Other` covers every custom or unlisted element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Tag {
    Other,
    A,
    Abbr,
    Address,
    Area,
    Article,
    Aside,
    Audio,
    B,
    Base,
    Blockquote,
    Body,
    Br,
    Button,
    Canvas,
    Caption,
    Center,
    Col,
    Datalist,
    Dd,
    Details,
    Dialog,
    Dir,
    Div,
    Dl,
    Dt,
    Em,
    Embed,
    Fieldset,
    Figcaption,
    Figure,
    Font,
    Footer,
    Form,
    Frame,
    Frameset,
    H1,
    H2,
    H3,
    H4,
    H5,
    H6,
    Head,
    Header,
    Hgroup,
    Hr,
    Html,
    I,
    Iframe,
    Img,
    Input,
    Keygen,
    Label,
    Legend,
    Li,
    Link,
    Listing,
    Main,
    Map,
    Math,
    Menu,
    Meta,
    Nav,
    Noembed,
    Noframes,
    Noscript,
    Object,
    Ol,
    Optgroup,
    Option,
    P,
    Param,
    Plaintext,
    Pre,
    Rp,
    Rt,
    Script,
    Section,
    Select,
    Source,
    Span,
    Strong,
    Style,
    Summary,
    Svg,
    Table,
    Tbody,
    Td,
    Template,
    Textarea,
    Tfoot,
    Th,
    Thead,
    Title,
    Tr,
    Track,
    U,
    Ul,
    Video,
    Wbr,
    Xmp,
}

impl Tag {
    /// The tag for a lowercased element name.
    pub fn from_name(name: &[u8]) -> Tag {
        use Tag::*;
        match name {
            b"a" => A,
            b"abbr" => Abbr,
            b"address" => Address,
            b"area" => Area,
            b"article" => Article,
            b"aside" => Aside,
            b"audio" => Audio,
            b"b" => B,
            b"base" => Base,
            b"blockquote" => Blockquote,
            b"body" => Body,
            b"br" => Br,
            b"button" => Button,
            b"canvas" => Canvas,
            b"caption" => Caption,
            b"center" => Center,
            b"col" => Col,
            b"datalist" => Datalist,
            b"dd" => Dd,
            b"details" => Details,
            b"dialog" => Dialog,
            b"dir" => Dir,
            b"div" => Div,
            b"dl" => Dl,
            b"dt" => Dt,
            b"em" => Em,
            b"embed" => Embed,
            b"fieldset" => Fieldset,
            b"figcaption" => Figcaption,
            b"figure" => Figure,
            b"font" => Font,
            b"footer" => Footer,
            b"form" => Form,
            b"frame" => Frame,
            b"frameset" => Frameset,
            b"h1" => H1,
            b"h2" => H2,
            b"h3" => H3,
            b"h4" => H4,
            b"h5" => H5,
            b"h6" => H6,
            b"head" => Head,
            b"header" => Header,
            b"hgroup" => Hgroup,
            b"hr" => Hr,
            b"html" => Html,
            b"i" => I,
            b"iframe" => Iframe,
            b"img" => Img,
            b"input" => Input,
            b"keygen" => Keygen,
            b"label" => Label,
            b"legend" => Legend,
            b"li" => Li,
            b"link" => Link,
            b"listing" => Listing,
            b"main" => Main,
            b"map" => Map,
            b"math" => Math,
            b"menu" => Menu,
            b"meta" => Meta,
            b"nav" => Nav,
            b"noembed" => Noembed,
            b"noframes" => Noframes,
            b"noscript" => Noscript,
            b"object" => Object,
            b"ol" => Ol,
            b"optgroup" => Optgroup,
            b"option" => Option,
            b"p" => P,
            b"param" => Param,
            b"plaintext" => Plaintext,
            b"pre" => Pre,
            b"rp" => Rp,
            b"rt" => Rt,
            b"script" => Script,
            b"section" => Section,
            b"select" => Select,
            b"source" => Source,
            b"span" => Span,
            b"strong" => Strong,
            b"style" => Style,
            b"summary" => Summary,
            b"svg" => Svg,
            b"table" => Table,
            b"tbody" => Tbody,
            b"td" => Td,
            b"template" => Template,
            b"textarea" => Textarea,
            b"tfoot" => Tfoot,
            b"th" => Th,
            b"thead" => Thead,
            b"title" => Title,
            b"tr" => Tr,
            b"track" => Track,
            b"u" => U,
            b"ul" => Ul,
            b"video" => Video,
            b"wbr" => Wbr,
            b"xmp" => Xmp,
            _ => Other,
        }
    }

    /// Elements that never have content or an end tag.
    pub fn is_void(self) -> bool {
        use Tag::*;
        matches!(
            self,
            Area | Base
                | Br
                | Col
                | Embed
                | Hr
                | Img
                | Input
                | Keygen
                | Link
                | Meta
                | Param
                | Source
                | Track
                | Wbr
                | Frame
        )
    }

    /// Elements whose content is raw text up to `</name` (never markup).
    pub fn is_raw_text(self) -> bool {
        use Tag::*;
        matches!(
            self,
            Script | Style | Textarea | Title | Xmp | Iframe | Noembed | Noframes | Plaintext
        )
    }

    /// Elements dropped with all their content (never shown as text).
    pub fn is_removed(self) -> bool {
        use Tag::*;
        matches!(
            self,
            Script
                | Style
                | Template
                | Svg
                | Math
                | Iframe
                | Select
                | Datalist
                | Textarea
                | Button
                | Object
                | Canvas
                | Audio
                | Video
                | Noembed
                | Noframes
                | Title
                | Head
                | Map
                | Rp
        )
    }

    /// Elements that start and end a line of text.
    pub fn is_block(self) -> bool {
        use Tag::*;
        matches!(
            self,
            Address
                | Article
                | Aside
                | Blockquote
                | Body
                | Br
                | Caption
                | Center
                | Dd
                | Details
                | Dialog
                | Dir
                | Div
                | Dl
                | Dt
                | Fieldset
                | Figcaption
                | Figure
                | Footer
                | Form
                | Frameset
                | H1
                | H2
                | H3
                | H4
                | H5
                | H6
                | Header
                | Hgroup
                | Hr
                | Html
                | Legend
                | Li
                | Listing
                | Main
                | Menu
                | Nav
                | Ol
                | Option
                | P
                | Plaintext
                | Pre
                | Section
                | Summary
                | Table
                | Tbody
                | Td
                | Tfoot
                | Th
                | Thead
                | Tr
                | Ul
                | Xmp
        )
    }

    /// Start tags that close an open `<p>` (HTML's "close a p element" list).
    pub fn closes_p(self) -> bool {
        use Tag::*;
        matches!(
            self,
            Address
                | Article
                | Aside
                | Blockquote
                | Center
                | Details
                | Dialog
                | Dir
                | Div
                | Dl
                | Dd
                | Dt
                | Fieldset
                | Figcaption
                | Figure
                | Footer
                | Form
                | H1
                | H2
                | H3
                | H4
                | H5
                | H6
                | Header
                | Hgroup
                | Hr
                | Li
                | Listing
                | Main
                | Menu
                | Nav
                | Ol
                | P
                | Plaintext
                | Pre
                | Section
                | Summary
                | Table
                | Ul
                | Xmp
        )
    }

    /// HTML's "special" elements: they stop the search for an open `li`/`dd`/`dt`.
    pub fn is_special_scope_stop(self) -> bool {
        use Tag::*;
        self.is_block() && !matches!(self, Address | Div | P | Li | Dd | Dt)
            || matches!(self, Td | Th | Table | Button | Html | Body)
    }

    /// Headings h1-h6.
    pub fn is_heading(self) -> bool {
        use Tag::*;
        matches!(self, H1 | H2 | H3 | H4 | H5 | H6)
    }

    /// Elements that are boilerplate by their tag alone.
    pub fn is_boilerplate(self) -> bool {
        matches!(self, Tag::Nav | Tag::Aside | Tag::Footer | Tag::Dialog)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interning_and_properties() {
        assert_eq!(Tag::from_name(b"div"), Tag::Div);
        assert_eq!(Tag::from_name(b"my-widget"), Tag::Other);
        assert!(Tag::Br.is_void() && !Tag::Div.is_void());
        assert!(Tag::Script.is_raw_text() && Tag::Script.is_removed());
        assert!(!Tag::Form.is_removed());
        assert!(Tag::Div.closes_p() && !Tag::Span.closes_p());
        assert!(Tag::Li.is_block() && !Tag::A.is_block());
    }
}
