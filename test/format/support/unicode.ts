/** True when `s` has no lone surrogate (String#isWellFormed, which lib ES2022 lacks). */
export function isWellFormed(s: string): boolean {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);
}
