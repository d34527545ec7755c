#!/usr/bin/env python3
"""Regenerates the charset fixtures in this directory (used by tests/decode_charsets.rs)."""
import os
os.chdir(os.path.dirname(os.path.abspath(__file__)))
zh = "<html><head><title>新闻中心</title></head><body><div><p>中华人民共和国成立以来，经济发展取得了巨大的成就。我们要继续努力，建设社会主义现代化国家。</p><p>今天天气很好，我们去公园散步吧。这个问题需要认真研究和讨论。</p></div></body></html>"
open("gbk_undeclared.html", "wb").write(zh.encode("gbk"))
fr = "<html><head><meta charset=\"utf-8\"><title>Café</title></head><body><p>Crème brûlée, déjà vu — l’été à Noël, où êtes-vous? Ça coûte 5 €.</p></body></html>"
open("cp1252_labelled_utf8.html", "wb").write(fr.encode("cp1252"))
de = "<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-1\"></head><body><p>Grüße aus Köln – schöne Straße</p></body></html>"
open("utf8_labelled_latin1.html", "wb").write(de.encode("utf-8"))
ja = "<html><head><meta charset=\"Shift_JIS\"></head><body><p>これは日本語のウェブページです。東京の桜は本当に美しい。</p></body></html>"
open("sjis_meta.html", "wb").write(ja.encode("shift_jis"))
ru = "<html><body><p>Привет, мир! Это тестовая страница.</p></body></html>"
open("utf16le_bom.html", "wb").write(b"\xff\xfe" + ru.encode("utf-16-le"))
