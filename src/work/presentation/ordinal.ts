const RULES = new Intl.PluralRules('en', { type: 'ordinal' });
const SUFFIX: Partial<Record<Intl.LDMLPluralRule, string>> = { one: 'st', two: 'nd', few: 'rd' };

/** 1st, 2nd, 3rd, 4th, 11th, 21st…: English ordinals, by the platform's plural rules. */
export function ordinal(n: number): string {
  return `${n}${SUFFIX[RULES.select(n)] ?? 'th'}`;
}
