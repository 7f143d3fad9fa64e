/** GET /api/cert/ca/chain?format=pem|der|p7b: the caller's CA chain as a file. */
import { CHAIN_FORMATS, pkiPaths } from '@umbo/contracts/pki';
import { downloadResponse } from '../components/save-file';
import { api } from '../../../lib/api-client';

const FALLBACK: Record<(typeof CHAIN_FORMATS)[number], string> = { pem: 'ca-chain.pem', der: 'ca.der', p7b: 'ca-chain.p7b' };

/** Answers the file name it saved under. */
export async function downloadChain(format: (typeof CHAIN_FORMATS)[number]): Promise<string> {
  const res = await api.get<Response>(pkiPaths.caChain(format), { stream: true });
  return downloadResponse(res, FALLBACK[format]);
}
