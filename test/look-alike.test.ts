// Which characters of a file name read as a slash, a backslash or a dot (driver/runtime/look-alike.ts):
// the rule `fs`, `--out` and the render outputs apply to names a page may have chosen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pathLookAlike, readsAsHidden } from '../driver/runtime/look-alike.js';

test('confusables of / \\ and . are refused, and letters of a script that uses them are kept between its own', () => {
  for (const name of ['etc\u2571passwd', '\uA4F8git', 'report\u06D4pdf', 'a\u0660b', 'etc\u2AFDpasswd']) assert.ok(pathLookAlike(name), name);
  for (const name of ['\u30B9\u30CE\u30FC.txt', '\u0662\u0660\u0662\u0664', 'report.pdf', 'Caf\u00E9 \u2014 Menu']) assert.equal(pathLookAlike(name), undefined, name);
  assert.ok(readsAsHidden('\uA4F8git'));
});

// Thirteenth red-team pass: dot-like punctuation outside confusables.txt between Latin letters
// (an ideographic full stop, a ring point, runic and Aegean word separators, the Hangul araea).
test('other punctuation straight between letters of a script that does not use it reads as a dot and is refused', () => {
  for (const name of ['etc\u3002passwd.txt', 'x\u{10101}png', 'x\u2E30png', 'x\u16EBpng', 'x\u318Dpng', 'v1\u3002pdf', 'a\u2022b', 'x\u0589y']) {
    assert.ok(pathLookAlike(name), `${name} is refused`);
  }
  // Where its own script uses it, or beside a space, it is what it reads as.
  for (const name of ['\uD55C\u318D\uAE00', '\u3053\u3093\u306B\u3061\u306F\u3002\u30C6\u30B9\u30C8', 'Title \u2022 Sub', '\u00BFQu\u00E9', '\u0532\u0561\u0580\u0565\u0582\u0589\u0541\u0565\u0566']) {
    assert.equal(pathLookAlike(name), undefined, `${name} is kept`);
  }
});

// Fourteenth red-team pass: dots of other classes (math operators, a Latin and a Canadian letter,
// spots), a backslash-like box diagonal and a blank music symbol passed.
test('dots that are not punctuation, the box diagonal ╲ and the null notehead read as path punctuation or a space', () => {
  for (const name of ['etc\u2219passwd', 'invoice\u22C5pdf', 'x\uA78Fpng', 'x\u1427png', 'x\u0971png', 'x\u2981png', 'x\u{1F784}png', 'x\u22EFpng', 'x\u02D9png', 'etc\u2572passwd', 'report\u{1D159}final']) {
    assert.ok(pathLookAlike(name), `${name} is refused`);
  }
  for (const name of ['Title \u2219 Sub']) assert.equal(pathLookAlike(name), undefined, `${name} is kept`);
});

// Fifteenth red-team pass: a halfwidth form of a look-alike (ﾉ), CJK strokes, dots of further
// classes (modifier letters and symbols, tone marks, an Arabic and a Duployan dot, a small
// square) and a combining dot on a space.
test('compatibility forms of look-alikes, CJK strokes, modifier dots, symbols and marks on a space are refused; plain symbols and emoji stay', () => {
  for (const name of ['etc\uFF89shadow', 'home\u31D2user', 'C:\u31CFWindows', 'invoice\u0887pdf', 'report\u{1BC94}exe', 'setup\u02D1sh', 'backup\u302Etar', 'win\u02F3ini', 'etc\u119Epasswd', 'x\u2B1Denv', 'invoice \u0323pdf', '\u0307env']) {
    assert.ok(pathLookAlike(name), `${name} is refused`);
  }
  for (const name of ['1920\u00D71080.png', 'I \u2764 NY', 'caf\u00E9', 'Vi\u1EC7t', '\u30E9\u30FC\u30E1\u30F3', '\u30B9\u30CE\uFF70', 'A\u2122B', '\uFF71\uFF89\uFF72']) assert.equal(pathLookAlike(name), undefined, `${name} is kept`);
});

test('a name starting with a dot of any kind reads as hidden to --out; one starting with a letter, an emoji or a plain symbol does not', () => {
  for (const name of ['.env', '\u302Eenv', '\u2B1Denv', '\u02D1ssh', '\u2219git', '\uA4F8git']) assert.ok(readsAsHidden(name), name);
  for (const name of ['env', '\u00A9notes', '\u{1F680}launch', '\u30E9\u30FC\u30E1\u30F3']) assert.equal(readsAsHidden(name), false, name);
});

// After fifteen passes that each found a class of look-alike the rules lacked, the rule is an
// allow-list: what is not a letter, digit, mark on a letter, emoji or plain symbol needs a
// reason to stand between letters, and a letter of another script set into a word is refused.
test('the allow-list: other scripts set into a word, private-use and unassigned code points, odd spaces and hyphens, marks on punctuation are refused', () => {
  for (const name of ['etc\u4E36passwd', 'report\uE000pdf', 'a\u1680b', 'etc\u0378passwd', 'x-\u0323pdf', 'x\u2010y', 'A\uD55CB', 'etc\u0D7Epasswd', 'x\u16EDy']) {
    assert.ok(pathLookAlike(name), `${JSON.stringify(name)} is refused`);
  }
  const kept = ['Google\u691C\u7D22\u7D50\u679C', 'iPhone\u7528\u30B1\u30FC\u30B9', '2024\u5E743\u6708', '\u00ABTitre\u00BB', '\u00E9t\u00E9', '\u{1F44D}\u{1F3FD}ok', '\u{1F1EB}\u{1F1F7}France', '1\uFE0F\u20E3',
    '\u041C\u043E\u0441\u043A\u0432\u0430', 'ABC\uD55C\uAD6D\uC5B4DEF', 'Home \u2022 Shop', 'na\u00EFve r\u00E9sum\u00E9', '\u0928\u092E\u0938\u094D\u0924\u0947', '\u0645\u0631\u062D\u0628\u0627', 'stra\u00DFe'];
  for (const name of kept) assert.equal(pathLookAlike(name), undefined, `${name} is kept`);
  for (const name of ['\uE000notes', '\u2010env', '\u1680x']) assert.ok(readsAsHidden(name), `${JSON.stringify(name)} reads as hidden`);
});

// Sixteenth red-team pass (B16): a TAB in a name; names spelled in Lisu, Coptic or Canadian
// syllabics look-alikes of Latin capitals with their own dot or slash among their letters;
// --out copied names starting with a space, a TAB or a dash.
test('ASCII controls, and look-alike dots and slashes of scripts that can spell Latin look-alikes, are refused; a leading space or dash reads as hidden', () => {
  for (const name of ['\tinvoice.pdf\t\t.sh', 'a\x7fb', 'Repor\uA4D4\uA4F8\uA4D1\uA4D3\uA4DD', '\uA4E2\uA4F0\uA4DA\uA4E3\uA4F0\uA4D4\uA4F8\uA4D4\uA4EB\uA4D4', '\u2C89\u2CA7\u2CA5\u2CC6\u2CA1', '\u157C\u15DD\u15F0\u15F4\u141F\u144C\u1515\u15F4\u1587', '\u1401\u1427\u1403']) {
    assert.ok(pathLookAlike(name), `${JSON.stringify(name)} is refused`);
  }
  for (const name of [' x.txt', '\tx.txt', '-rf']) assert.ok(readsAsHidden(name), `${JSON.stringify(name)} reads as hidden`);
  for (const name of ['_x', '#x', 'x-y']) assert.equal(readsAsHidden(name), false, name);
});

// Seventeenth pass (B17): unassigned code points reserved as emoji, marks of a script that draw
// nothing on a Latin letter, a mark on the letter before a dot, an emoji beside it, and two
// more slash overlays passed.
test('unassigned code points, a script\'s mark on another script\'s letter, a mark or emoji beside a dot, and slash overlays are refused', () => {
  for (const name of ['\u{1FC00}invoice.pdf', 'invoice\u{1FC41}.pdf', 'invoice\u{16FE4}.pdf', 'invoice\u{1BC9D}.pdf', 'a\u2D7Fb', 'etc\u0301\u2219passwd', 'x\u0301\u2E30png', 'invoice\u0332\u22C5exe', 'tar\u0301\u2027gz', 'invoice\u{1F4C4}\u2219exe', 'etc\u20E0passwd', 'etc\u{101FD}passwd']) {
    assert.ok(pathLookAlike(name), `${JSON.stringify(name)} is refused`);
  }
  for (const name of ['caf\u00E9 menu', '\u0928\u092E\u0938\u094D\u0924\u0947', '\u0E2A\u0E27\u0E31\u0E2A\u0E14\u0E35', '1\uFE0F\u20E3', 'Vi\u1EC7t']) assert.equal(pathLookAlike(name), undefined, `${name} is kept`);
  assert.ok(readsAsHidden('\u{1FC00}-rf'));
});

// Eighteenth pass (B18): runs of spaces pushed a name's real end out of sight, and an emoji
// small square read as a dot between letters.
test('runs of spaces, trailing spaces and geometric-shape emoji between letters are refused; one space and pictures stay', () => {
  for (const name of ['invoice.pdf' + '\u3000'.repeat(60) + '.sh', 'a' + ' '.repeat(200) + 'b', 'x\u00A0\u00A0\u00A0y', 'name ', 'etc\u25AA\uFE0Epasswd', 'etc\u25FEpasswd', 'a\u23FAb']) {
    assert.ok(pathLookAlike(name), `${JSON.stringify(name)} is refused`);
  }
  for (const name of ['my report.pdf', 'a  b', 'I \u2764 NY', 'Home \u25AA Shop', '\u{1F680}launch']) assert.equal(pathLookAlike(name), undefined, `${name} is kept`);
});

// Nineteenth pass (B19): a dot doubled between letters, and a dot at the start of a name beside
// a letter, passed the "straight between letters" rule (`secret∙∙txt`, `⸰ssh/id_rsa.png`).
test('runs of dots between letters, a dot beside a letter at either end, and names made of dots are refused', () => {
  for (const name of ['secret\u2219\u2219txt', 'etc\u16EB\u16EBpasswd', 'secret\u30FB\u30FBtxt', '\u2E30ssh', '\u2219bashrc', '\u30FBgit', '\u1427npmrc', '\u3002\u3002', '\u00B7\u00B7']) {
    assert.ok(pathLookAlike(name), `${JSON.stringify(name)} is refused`);
  }
  for (const name of ['Home \u2022 Shop', '\u3053\u3093\u306B\u3061\u306F\u3002\u30C6\u30B9\u30C8', 'Title \u2219 Sub']) assert.equal(pathLookAlike(name), undefined, `${name} is kept`);
});

// Twentieth pass (B20): a text selector after © (invisible), the emoji selector after ™ or a
// picture that is one already (no change one can see), a moon drawn as ● by its text selector,
// dot-shaped emoji between letters, and a combining dot up right that draws as `˙`.
test('variation selectors that change nothing one sees, dot-shaped emoji and accents no language writes are refused', () => {
  for (const name of ['x\u00A9\uFE0E.png', 'a\u2122\uFE0F.txt', 'a\u203C\uFE0F.txt', '\u{1F642}\uFE0F.txt', 'secret\u{1F311}\uFE0Etxt.png', 'secret\u{1F311}txt', 'secret\u{1F573}txt.png', 'a\u23F9b', 'a\u23F8b', 'a\u{1F518}b', 'a\u{1F3B1}b', 'invoicep\u0358df.png', 'report\uFE0E.pdf']) {
    assert.ok(pathLookAlike(name), `${name} is refused`);
  }
  for (const name of ['I \u2764\uFE0F NY', '\u26A0\uFE0F warning.txt', '1\uFE0F\u20E3 first.md', '\u{1F680}launch', 'Vi\u1EC7t Nam', 'caf\u00E9', 'Moon \u{1F311} phases']) {
    assert.equal(pathLookAlike(name), undefined, `${name} is kept`);
  }
});

// Twenty-first pass (B21): the Arabic-Indic digit one, which DejaVu Sans Mono draws as a
// backslash, and other scripts' digits inside a Latin word; a dot put on a digit; names that
// differ only in normal form (NFD accents, the Kelvin sign); a middle dot between letters other
// than Catalan's l·l; a Mayan numeral one, drawn as a dot.
test('a digit of another script in a word, a mark on a digit, a name not in NFC, a middle dot outside l·l and dot-shaped numbers are refused', () => {
  for (const name of ['etc\u0661passwd', 'C:\u0661Users', '\u0661bashrc', '\u06F1ssh', 'passw\u0966rd', 'g\u0E50\u0E50gle', 'invoice2024\u0358pdf', '2024\u0335x', 're\u0301sume\u0301.pdf', '\u212A.txt', '\u2126.txt', '\u212Bngstrom', 'secret\u00B7txt', '\u00B7bashrc', 'a\u{1D2E1}b']) {
    assert.ok(pathLookAlike(name), `${name} is refused`);
  }
  for (const name of ['\u0662\u0660\u0662\u0661', '\u0627\u0644\u0641\u0635\u0644 \u0661', 'r\u00E9sum\u00E9.pdf', 'Title \u00B7 Sub', '1\uFE0F\u20E3 first.md', 'K.txt', '\u03A9.txt', '\u0967\u0968 \u0928\u092E\u0938\u094D\u0924\u0947']) {
    assert.equal(pathLookAlike(name), undefined, `${name} is kept`);
  }
});

// Twenty-second pass (B22): round emoji outside any list (moon faces, a nazar, a football) glued
// between letters read as a dot, and the Georgian paragraph separator ჻ as a dotted one.
test('an emoji glued between two letters or digits is refused, and so is ჻; with a space beside it an emoji stays', () => {
  for (const name of ['x\u{1F31A}png', 'x\u{1F9FF}png', 'x\u26BDpng', 'x\u{1F4BF}png', 'I\u2764NY', 'secret\u{1F573}\u{1F573}txt', 'etc\u10FBpasswd', 'invoice\u10FBpdf']) {
    assert.ok(pathLookAlike(name), `${name} is refused`);
  }
  for (const name of ['I \u2764 NY', '\u{1F680}launch', 'launch\u{1F680}', 'Moon \u{1F31A} face', '\u{1F44D}\u{1F3FD}ok', '1\uFE0F\u20E3 first.md']) {
    assert.equal(pathLookAlike(name), undefined, `${name} is kept`);
  }
});

// Twenty-third pass (B23): subscript and modifier letters that draw a small ring or dot on the
// line (`ₒ ₀ ᵢ 𐞂`), `ŀ` (whose compatibility form is `l·`), and Catalan's `l·l` itself
// (`payroll·lnk` reads as `payroll.lnk`).
test('a subscript, superscript or modifier form of a letter or digit between two letters, ŀ, and a middle dot even in l·l are refused', () => {
  for (const name of ['invoice\u2092pdf', 'etc\u2092passwd', 'report\u2080pdf', 'report\u1D62pdf', 'etc\u{10782}passwd', 'trave\u0140pdf', 'TRAVE\u013FPDF', 'payroll\u00B7lnk', 'kernel\u00B7log', 'col\u00B7lecci\u00F3', 'H\u2082O', 'x\u00B2y', '1\u00BApiso', 'pa\u{1D42C}\u{1D42C}word']) {
    assert.ok(pathLookAlike(name), `${name} is refused`);
  }
  for (const name of ['area m\u00B2.png', 'm\u00B2', '\uD55C\u318D\uAE00', '\uFF28\uFF25\uFF2C\uFF2C\uFF2F', '1\u00BA piso', '\u2160 chapter']) {
    assert.equal(pathLookAlike(name), undefined, `${name} is kept`);
  }
});

// Twenty-fifth pass (B25): vulgar fractions, whose compatibility form holds the fraction slash
// (`⅟` is `1⁄`), and number signs of other scripts between Latin letters.
test('vulgar fractions and other scripts\' number signs between letters are refused; a fraction cannot start a name', () => {
  for (const name of ['etc\u215Fpasswd', 'home\u215Fuser\u215Fssh', 'secret\u00BDtxt', 'etc\u2189passwd', 'etc\u215Dpasswd', 'etc\u3021passwd', 'etc\u3192passwd', 'etc\u09F7passwd']) {
    assert.ok(pathLookAlike(name), `${name} is refused`);
  }
  assert.ok(readsAsHidden('\u215F.bashrc'));
  for (const name of ['\uD55C\u318D\uAE00', 'm\u00B2', '\u4E00\u3021\u4E8C', 'r\u00E9sum\u00E9 2024.pdf']) {
    assert.equal(pathLookAlike(name), undefined, `${name} is kept`);
  }
});

// Twenty-eighth red-team pass (B28): a look-alike letter at a word's edge made twin names
// (`Ιnvoice.pdf`, `invoicе.pdf`), and Egyptian blank letters padded a name as spaces do.
test('a letter drawn as an ASCII one beside an ASCII letter, and letters drawn as blank space, are refused', async () => {
  const { pathLookAlike } = await import('../driver/runtime/look-alike.js');
  for (const name of ['\u0399nvoice.pdf', 'invoic\u0435.pdf', 'invoice.\u0440df', '\u0430dmin.sh', '\u03BFpen.sh', '\u2170nvoice.pdf', '\uFB01nance.xlsx', '\u13AApple.txt', `invoice.pdf${'\u{13441}'.repeat(3)}.sh`, 'report\u{13442}exe.svg',
    // Pass 29 (B29): a word spelled only in such letters, and compatibility letters anywhere.
    '\u0440\u0430\u0443.pdf', '\u03A1\u0391\u03A5.pdf', '\u0455\u0440.\u0440\u0443', 'report-\u0441\u043E\u0440\u0443.txt', '\u{1D5C9}\u{1D5D2}.py', '\u24D0bc.txt']) {
    assert.notEqual(pathLookAlike(name), undefined, `${name} should be refused`);
  }
  for (const name of ['Привет.txt', 'Αθήνα.txt', 'Kayıt.pdf', '1º piso.txt', 'm².txt', 'naïve.txt', 'Straße.txt', 'iPhone用ケース.png', 'Москва.txt', 'ｐａｙ.pdf', '©2024.txt']) {
    assert.equal(pathLookAlike(name), undefined, `${name} should be kept`);
  }
});

// Red-team pass 32 (B32): the same mark repeated on one letter stacks where the first one is,
// so `بَََ.txt` listed exactly as `بَ.txt` (Hebrew, Thai, Devanagari and kana alike).
test('the same combining mark twice on one letter is refused; one of it, or two different ones where a script takes them, is kept', () => {
  for (const name of ['\u0628\u064E\u064E\u064E.txt', '\u05D1\u05B8\u05B8.txt', '\u0E01\u0E31\u0E31.txt', '\u0E01\u0E48\u0E48.txt', '\u0915\u0902\u0902.txt', '\u0915\u093F\u093F.txt', '\u3042\u3099\u3099.txt']) {
    assert.notEqual(pathLookAlike(name), undefined, JSON.stringify(name));
  }
  for (const name of ['\u0628\u064E.txt', '\u05D1\u05B8.txt', '\u0E01\u0E48.txt', '\u0915\u093F.txt', 'r\u00E9sum\u00E9.txt', '\u0E01\u0E34\u0E48.txt']) {
    assert.equal(pathLookAlike(name), undefined, JSON.stringify(name));
  }
});

// Pass 34 (B35): Hangul vowels and finals with no initial before them take no column in a
// terminal: `inv` + three of them + `oice.pdf` listed as `invoice.pdf`.
test('a Hangul vowel or final that joins no syllable, or a Hangul filler, is refused; Korean words and old syllables stay', () => {
  for (const name of ['inv\u1161\u1161\u1161oice.pdf', '\u1161\u1161.bashrc', 'invoice.pdf\u1161\u1161', 'invoice\uD7B0\uD7B0.pdf', 'a\u11A8b.txt', 'x\u3164y.txt', 'x\u115Fy.txt', 'x\u1160y.txt', 'x\uFFA0y.txt']) {
    assert.ok(pathLookAlike(name), JSON.stringify(name));
  }
  for (const name of ['\uBCF4\uACE0\uC11C.pdf', '\uD55C\uAE00 \uBB38\uC11C.txt', '\u1100\u119E\u11A8.txt']) assert.equal(pathLookAlike(name), undefined, name);
});

// Pass 38 (B38): Tifinagh YAG is drawn as a capital I, and YA as a small o; confusables.txt
// says neither.
test('a Tifinagh YAG or YA beside ASCII letters is refused like any letter drawn as one', () => {
  for (const name of ['\u2D4ANVOICE.pdf', '\u2D4AMG_0001.png', 'SETUP\u2D4A', 'README.\u2D4A', 'rep\u2D30rt.pdf', 'l\u2D30g.txt']) assert.ok(pathLookAlike(name), name);
});

// Pass 39 (B39): a page's download name `–rf` (an en dash) was copied by --out into the user's
// folder, where it lists as the flag `-rf` that the rule holds back.
test('a name that starts with anything drawn as a dash reads as hidden; one that starts with a quote, a guillemet or ¿ does not', () => {
  for (const name of ['\u2013rf.txt', '\u2014rf.txt', '\u2212rf.txt', '\u2015x', '\uFE63x', '\uFF0Dx', '\u2796rf', '\u2CBArf', '\u2010x']) assert.ok(readsAsHidden(name), JSON.stringify(name));
  for (const name of ['\u00ABReport\u00BB.pdf', '\u00BFQu\u00E9?.txt', '\u201CQuoted\u201D.txt', '\u00A7 4.pdf', 'a\u2013b.txt']) assert.equal(readsAsHidden(name), false, name);
});
