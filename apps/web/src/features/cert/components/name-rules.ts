/**
 * SPEC §5's rules for a common name and each subject alternative name, by kind — the same
 * checks the issuance service applies (contracts' isDomainName / IPV4 / EMAIL / isHttpUrl), so
 * the form says what the server would refuse (1105 SAN_INVALID) before it is sent.
 */
import { EMAIL, IPV4, isDomainName, isHttpUrl } from '@umbo/contracts/checks';
import type { CnType, SanType } from '@umbo/contracts/pki';

export type NameProblem = 'cert.cn_invalid_dns' | 'validation.email' | 'validation.url' | 'validation.invalid' | undefined;

export function sanProblem(type: SanType, value: string): NameProblem {
  switch (type) {
    case 'dns':
      return isDomainName(value) ? undefined : 'cert.cn_invalid_dns';
    case 'ip':
      return IPV4.test(value) ? undefined : 'validation.invalid';
    case 'email':
      return EMAIL.test(value) ? undefined : 'validation.email';
    case 'uri':
      return isHttpUrl(value) ? undefined : 'validation.url';
  }
}

/** A device id is free text within the length limit (no blank ends); the other kinds follow their SAN rule. */
export function cnProblem(cnType: CnType, value: string): NameProblem {
  if (cnType === 'deviceId') return /^\S(.*\S)?$/.test(value) ? undefined : 'validation.invalid';
  return sanProblem(cnType, value);
}
