/**
 * antd form rules from the zod schemas in @umbo/contracts (STYLE §6): a field is checked by the
 * very schema the server route checks it with, so no rule is written twice.
 *
 *   <Form.Item name="username" rules={rulesFor(updateAccountBody.shape.username, t)}>
 *
 * An empty field (undefined, null or '') is the schema's business only through `required`: a
 * schema that refuses undefined makes the field required ("This field is required"), one that
 * accepts it leaves an empty field alone. Anything typed is parsed by the schema; the first
 * issue's message is shown. Contracts write messages as phrase keys (`validation.username`);
 * zod's own English defaults (a bare `.max(254)`) become the nearest phrase instead.
 * Rules only a form knows (e.g. "differs from the current name") are appended by the caller.
 */
import type { Phrases } from '@umbo/contracts/phrases/types';
import type { Rule } from 'antd/es/form';

/** What this adapter needs of a zod schema; structural, so web code does not import zod itself. */
export interface FieldSchema {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: readonly FieldIssue[] } };
}

export interface FieldIssue {
  code: string;
  message: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  origin?: string;
}

export type ValidationKey = `validation.${keyof Phrases['validation'] & string}`;
/** The i18next `t` of the calling component. */
export type Translate = (key: ValidationKey, options?: { min?: number; max?: number }) => string;

const PHRASE_KEY = /^validation\.[a-z_]+$/;

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/** True when the schema refuses a missing value. */
export function isRequired(schema: FieldSchema): boolean {
  return !schema.safeParse(undefined).success;
}

/** The message for a zod issue: its phrase key when it has one, else the nearest general phrase. */
export function issueMessage(issue: FieldIssue, t: Translate): string {
  if (PHRASE_KEY.test(issue.message)) return t(issue.message as ValidationKey);
  const isText = issue.origin === 'string';
  if (issue.code === 'too_small' && isText && Number(issue.minimum) === 1) return t('validation.required');
  if (issue.code === 'too_small' && isText) return t('validation.too_short', { min: Number(issue.minimum) });
  if (issue.code === 'too_big' && isText) return t('validation.too_long', { max: Number(issue.maximum) });
  return t('validation.invalid');
}

/** The first problem the schema finds with a value, or undefined when it accepts it. */
export function checkField(schema: FieldSchema, value: unknown, t: Translate): string | undefined {
  const result = schema.safeParse(value);
  if (result.success) return undefined;
  const issue = result.error.issues[0];
  return issue ? issueMessage(issue, t) : t('validation.invalid');
}

/** antd rules for one field checked by `schema`. */
export function rulesFor(schema: FieldSchema, t: Translate): Rule[] {
  const rules: Rule[] = [];
  if (isRequired(schema)) rules.push({ required: true, message: t('validation.required') });
  rules.push({
    validator: (_rule, value: unknown) => {
      if (isEmpty(value)) return Promise.resolve();
      const problem = checkField(schema, value, t);
      return problem === undefined ? Promise.resolve() : Promise.reject(new Error(problem));
    },
  });
  return rules;
}
