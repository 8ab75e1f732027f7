/**
 * Rules for the text people name things with (user names, key names): lengths in Unicode code points, as
 * a person counts characters (an emoji is one, not two UTF-16 units); NFC, so that one name has one
 * stored form; no control characters and no bidi controls, which can make a name display as another.
 */
const CONTROL = /\p{Cc}/u;
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/u;

export function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}

export type NameCheck = { ok: true; name: string } | { ok: false; problem: string };

/** A name as stored (trimmed, NFC), or why it is refused. */
export function parseName(raw: string, maxLength: number): NameCheck {
  const name = raw.normalize("NFC").trim();
  const length = codePointLength(name);
  if (length < 1 || length > maxLength) return { ok: false, problem: `must be 1 to ${maxLength} characters` };
  if (CONTROL.test(name) || BIDI_CONTROL.test(name)) return { ok: false, problem: "must not contain control or bidi control characters" };
  return { ok: true, name };
}
