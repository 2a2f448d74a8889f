// The font stacks every page gstack builds uses (`gstack pdf` documents, `gstack diagram`
// pages). Fonts are named explicitly so emoji and CJK come from the OS packages the set-up
// installs (fonts-noto-color-emoji, fonts-noto-cjk) rather than whatever fontconfig happens to
// pick; the emoji font is last so digits stay text.

// "gstack emoji" maps only emoji code points to the colour emoji font (unicode-range), and
// comes first: otherwise a text font that happens to carry a few monochrome emoji (DejaVu Sans
// has 😀) wins, while listing the emoji font first unrestricted would turn digits into emoji.
export const SANS = '"gstack emoji", "Liberation Sans", Arial, Helvetica, "DejaVu Sans", "Noto Sans CJK SC", "Noto Color Emoji", sans-serif';
export const MONO = '"gstack emoji", "DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, "Noto Sans Mono CJK SC", "Noto Color Emoji", monospace';

export const EMOJI_FACE = `@font-face {
  font-family: "gstack emoji";
  src: local("Noto Color Emoji"), local("NotoColorEmoji"), local("Apple Color Emoji"), local("Segoe UI Emoji");
  unicode-range: U+00A9, U+00AE, U+203C, U+2049, U+2122, U+2139, U+2194-2199, U+21A9-21AA, U+231A-231B,
    U+2328, U+23CF, U+23E9-23F3, U+23F8-23FA, U+24C2, U+25AA-25AB, U+25B6, U+25C0, U+25FB-25FE,
    U+2600-27BF, U+2934-2935, U+2B05-2B07, U+2B1B-2B1C, U+2B50, U+2B55, U+3030, U+303D, U+3297, U+3299,
    U+FE0F, U+200D, U+20E3, U+1F000-1FAFF, U+E0020-E007F;
}`;
