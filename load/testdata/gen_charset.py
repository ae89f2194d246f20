#!/usr/bin/env python3
"""Writes the charset test pages in charset/ (run from testdata/).
Each page's expectations are in charset/cases.tsv."""
import os

def page(body, head=""):
    return "<html><head>%s<title>t</title></head><body>%s</body></html>\n" % (head, body)

filler = "<script>var x = '" + "a" * 3000 + "';</script>\n"
ru = "<p>Съешь же ещё этих мягких французских булок, да выпей чаю. Привет, как дела? Это проверка кодировки текста на русском языке.</p>"
pl = "<p>Zażółć gęślą jaźń. Pchnąć w tę łódź jeża lub ośm skrzyń fig. Świątecznych życzeń ślę.</p>"
cz = "<p>Příliš žluťoučký kůň úpěl ďábelské ódy. Šťastný a veselý svátek, řekl Tomáš.</p>"
ja = "<p>日本語のテキストです。これは文字コードの判定をテストするためのページです。東京は日本の首都です。</p>"
zh = "<p>这是一个中文网页，我们用它来测试字符编码的检测。中国的首都是北京，人们在这里生活和工作。</p>"
ko = "<p>이것은 한국어 웹 페이지입니다. 문자 인코딩 감지를 시험하기 위한 것입니다. 서울은 대한민국의 수도입니다.</p>"
el = "<p>Αυτή είναι μια ελληνική σελίδα για τον έλεγχο της κωδικοποίησης χαρακτήρων. Η Αθήνα είναι η πρωτεύουσα.</p>"
zhnews = "<h1>本地新闻</h1><p>今天上午，市政府召开新闻发布会，介绍了今年上半年全市经济运行情况。数据显示，全市地区生产总值同比增长百分之六点五，工业生产保持稳定，消费市场逐步回暖。</p>"
zhshort = "<h1>北京春节庙会</h1><p>会场内有许多本地商户摆摊，出售糖葫芦和饺子。孩子们随着锣鼓声跳舞，热闹的气氛一直持续到深夜。</p>"
zhone = "<h1>新闻</h1><p>今天上午，市政府召开了新闻发布会。</p>"
zh4 = "<p>今年北京的春季活动吸引了许多市民和游客，主办单位表示，参加人数比去年增加了两成。藏文：བོད་ཡིག 和 €欧元。</p>"
zhtw = "<p>這是一個中文網頁，我們用它來測試字元編碼的偵測。台北是一個美麗的城市，人們在這裡生活和工作。</p>"
hu = "<p>Az első héten sok új felhasználó érkezett, és a fórumon hosszú beszélgetések kezdődtek. Ő mindig gyorsan válaszol, de a kérdések többsége nehéz. Köszönjük a türelmet, jövő héten folytatjuk.</p>"
ro = "<p>Această pagină prezintă ştirile zilei: guvernul a anunţat o nouă lege, iar primăria organizează un târg în piaţa centrală. Şcolile încep luna viitoare.</p>"
tr = "<p>Bu sayfada günün haberleri yer alıyor: belediye yeni bir park açtı ve çocuklar için ücretsiz etkinlikler düzenleniyor. Öğrenciler gelecek hafta okula dönecek.</p>"
lt = "<p>Šiame puslapyje rasite dienos naujienas: miesto savivaldybė atidarė naują parką, o vaikams rengiami nemokami užsiėmimai. Mokiniai į mokyklą grįš kitą savaitę.</p>"
sl = "<p>Na tej strani so današnje novice: občina je odprla nov park, za otroke pa pripravlja brezplačne dejavnosti. Učenci se v šolo vrnejo prihodnji teden.</p>"
da = "<p>På denne side finder du dagens nyheder: kommunen har åbnet en ny park, og der er gratis aktiviteter for børn. Eleverne vender tilbage til skolen i næste uge.</p>"
es = "<p>¿Qué pasó ayer en la reunión? El señor García explicó que la situación económica mejoró, pero la inflación sigue alta. ¡Qué año tan difícil!</p>"
enpound = "<p>The ticket costs £5 for adults and £2.50 for children¹, payable at the door; the café opens at 6 o’clock.</p><p>¹ Under sixteen.</p>"
fr = "<p>Le café de la gare est très agréable. Où est la bibliothèque ? Ça coûte deux euros, c’est déjà ça.</p>"

W = {}
def w(name, data):
    W[name] = data

w("bom-utf8.html", b"\xef\xbb\xbf" + page(fr).encode("utf-8"))
w("bom-utf16le.html", b"\xff\xfe" + page(fr).encode("utf-16-le"))
w("bom-utf16be.html", b"\xfe\xff" + page(fr).encode("utf-16-be"))
w("bom-utf32le.html", b"\xff\xfe\x00\x00" + page(fr).encode("utf-32-le"))
w("bom-utf32be.html", b"\x00\x00\xfe\xff" + page(fr).encode("utf-32-be"))
w("utf16le-nobom.html", page(fr).encode("utf-16-le"))
w("utf8-late.html", page(filler + fr).encode("utf-8"))
w("utf8-vs-meta.html", page(fr, '<meta charset="iso-8859-1">').encode("utf-8"))
w("header-koi8r.html", page(ru, '<meta charset="windows-1251">').encode("koi8-r"))
w("meta-late-1251.html", page(ru, filler + '<meta charset="windows-1251">').encode("cp1251"))
w("meta-httpequiv-8859-2.html", page(pl, '<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-2">').encode("iso-8859-2"))
w("xml-decl-1250.html", b'<?xml version="1.0" encoding="windows-1250"?>\n' + page(cz).encode("cp1250"))
w("wrapper-latin1.html", b'<text id="http://example.com/a?x=1&amp;y=2" title="Caf\xe9 &amp; cr\xe8me" encoding="iso-8859-1">\n' + page(fr).encode("cp1252") + b"</text>\n")
w("wrapper-unset.html", b'<text id="http://example.com/b" encoding="unset">\n' + page(fr).encode("cp1252") + b"\n</text>")
w("wrapper-bogus.html", b'<text id="http://example.com/c" title="t" encoding="unknown- ">' + page(ru).encode("cp1251") + b"</text>")
w("guess-1252.html", page(fr).encode("cp1252"))
w("guess-1251.html", page(ru).encode("cp1251"))
w("guess-koi8r.html", page(ru).encode("koi8-r"))
w("guess-1250.html", page(pl + cz).encode("cp1250"))
w("guess-8859-2.html", page(pl + cz).encode("iso-8859-2"))
w("guess-1253.html", page(el).encode("cp1253"))
w("guess-sjis.html", page(ja).encode("shift_jis"))
w("guess-eucjp.html", page(ja).encode("euc_jp"))
w("guess-gbk.html", page(zh).encode("gbk"))
w("guess-gbk-news.html", page(zhnews).encode("gbk"))
w("guess-gbk-short.html", page(zhshort).encode("gbk"))
w("guess-gbk-oneline.html", page(zhone).encode("gbk"))
w("guess-gb18030.html", page(zh4).encode("gb18030"))
w("guess-big5.html", page(zhtw).encode("big5"))
w("utf16le-nobom-ru.html", page(ru).encode("utf-16-le"))
w("utf16be-nobom-ja.html", page(ja).encode("utf-16-be"))
w("guess-euckr.html", page(ko).encode("euc_kr"))
w("ascii.html", page("<p>Plain old ASCII text.</p>").encode())
w("ascii-meta-utf16.html", page("<p>Plain old ASCII text.</p>", '<meta charset="utf-16">').encode())
w("mixed-utf8-1252.html", page("<p>Caf\u00e9 cr\u00e8me na\u00efve</p>").encode("utf-8").replace(b"</p>", b" it\x92s</p>"))
w("meta-utf8-but-1252.html", page(fr, '<meta charset="utf-8">').encode("cp1252"))
w("guess-short-1252.html", page("<p>Copyright \u00a9 2006 M\u00fcller GmbH\u00ae. More\u00bb</p>").encode("cp1252"))
w("guess-hu-1250.html", page(hu).encode("cp1250"))
w("guess-hu-8859-2.html", page(hu).encode("iso-8859-2"))
w("guess-ro-1250.html", page(ro).encode("cp1250"))
w("guess-sl-1250.html", page(sl).encode("cp1250"))
w("guess-tr-1254.html", page(tr).encode("cp1254"))
w("guess-lt-1257.html", page(lt).encode("cp1257"))
w("guess-da-1252.html", page(da).encode("cp1252"))
w("guess-es-1252.html", page(es).encode("cp1252"))
w("guess-en-1252.html", page(enpound).encode("cp1252"))
w("guess-fr-circumflex-1252.html", page("<p>Il faut conna\u00eetre les cha\u00eenes du ma\u00eetre.</p>").encode("cp1252"))
w("guess-fr-menu-1252.html", page("<p>Accueil | Probl\u00e8me | Syst\u00e8me | Biblioth\u00e8que | Th\u00e8me</p>").encode("cp1252"))
w("guess-pt-circumflex-1252.html", page("<p>Rep\u00fablica Isl\u00e2mica da Maurit\u00e2nia</p>").encode("cp1252"))
w("guess-short-1250.html", page("<p>Zaż\u00f3łć gęślą jaźń</p>").encode("cp1250"))
w("utf8-truncated.html", ("<p>na\u00efve caf\u00e9 " + "x" * 10 + " \u20ac").encode("utf-8")[:-1])
w("default.html", page("<p>x \x81 y \x8d z \x9d</p>").encode("latin-1"))

os.makedirs("charset", exist_ok=True)
for name, data in W.items():
    with open(os.path.join("charset", name), "wb") as f:
        f.write(data)
