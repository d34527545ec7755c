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
    /// The canonical lowercase name of a known tag (`x` for `Other`, whose name callers keep).
    pub fn name(self) -> &'static [u8] {
        use Tag::*;
        match self {
            Other => b"x",
            A => b"a",
            Abbr => b"abbr",
            Address => b"address",
            Area => b"area",
            Article => b"article",
            Aside => b"aside",
            Audio => b"audio",
            B => b"b",
            Base => b"base",
            Blockquote => b"blockquote",
            Body => b"body",
            Br => b"br",
            Button => b"button",
            Canvas => b"canvas",
            Caption => b"caption",
            Center => b"center",
            Col => b"col",
            Datalist => b"datalist",
            Dd => b"dd",
            Details => b"details",
            Dialog => b"dialog",
            Dir => b"dir",
            Div => b"div",
            Dl => b"dl",
            Dt => b"dt",
            Em => b"em",
            Embed => b"embed",
            Fieldset => b"fieldset",
            Figcaption => b"figcaption",
            Figure => b"figure",
            Font => b"font",
            Footer => b"footer",
            Form => b"form",
            Frame => b"frame",
            Frameset => b"frameset",
            H1 => b"h1",
            H2 => b"h2",
            H3 => b"h3",
            H4 => b"h4",
            H5 => b"h5",
            H6 => b"h6",
            Head => b"head",
            Header => b"header",
            Hgroup => b"hgroup",
            Hr => b"hr",
            Html => b"html",
            I => b"i",
            Iframe => b"iframe",
            Img => b"img",
            Input => b"input",
            Keygen => b"keygen",
            Label => b"label",
            Legend => b"legend",
            Li => b"li",
            Link => b"link",
            Listing => b"listing",
            Main => b"main",
            Map => b"map",
            Math => b"math",
            Menu => b"menu",
            Meta => b"meta",
            Nav => b"nav",
            Noembed => b"noembed",
            Noframes => b"noframes",
            Noscript => b"noscript",
            Object => b"object",
            Ol => b"ol",
            Optgroup => b"optgroup",
            Option => b"option",
            P => b"p",
            Param => b"param",
            Plaintext => b"plaintext",
            Pre => b"pre",
            Rp => b"rp",
            Rt => b"rt",
            Script => b"script",
            Section => b"section",
            Select => b"select",
            Source => b"source",
            Span => b"span",
            Strong => b"strong",
            Style => b"style",
            Summary => b"summary",
            Svg => b"svg",
            Table => b"table",
            Tbody => b"tbody",
            Td => b"td",
            Template => b"template",
            Textarea => b"textarea",
            Tfoot => b"tfoot",
            Th => b"th",
            Thead => b"thead",
            Title => b"title",
            Tr => b"tr",
            Track => b"track",
            U => b"u",
            Ul => b"ul",
            Video => b"video",
            Wbr => b"wbr",
            Xmp => b"xmp",
        }
    }

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
