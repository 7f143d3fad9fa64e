/** The realm the public screens act for (realm_id query, else the project config) and its options. */
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { projectConfig } from '../../../lib/project-config';
import { getAuthOptions, type AuthOptions } from './get-auth-options';

export function useRealmOptions() {
  const [params] = useSearchParams();
  const realmId = params.get('realm_id') || projectConfig().realmId || undefined;
  const [options, setOptions] = useState<AuthOptions | undefined>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    getAuthOptions(realmId).then(setOptions, () => setFailed(true));
  }, [realmId]);
  return { realmId, options, failed };
}
