/**
 * Deleting a domain (SPEC §4: after a confirmation). A domain that still has accounts needs a
 * second, explicit confirmation naming the count; the server checks that count again.
 */
import Modal from 'antd/es/modal';
import type { RealmSummary } from '@umbo/contracts/realms';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showInfo } from '../../../lib/feedback';
import { useDeleteRealm } from '../api/realm-mutations';

export function DeleteRealmDialog({ realm, onClose }: { realm: RealmSummary | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const [step, setStep] = useState<'first' | 'everything'>('first');
  const remove = useDeleteRealm();
  if (!realm) return null;
  const count = realm.accountCount;
  const close = () => {
    setStep('first');
    onClose();
  };
  const done = () => {
    showInfo(() => t('domains.deleted', { realm: realm.realmId }));
    close();
  };
  const onOk = () => {
    if (step === 'first' && count > 0) return setStep('everything');
    const body = count > 0 ? { confirmDeleteEverything: true, accountCount: count } : {};
    remove.mutate({ realmId: realm.realmId, body }, { onSuccess: done });
  };
  const everything = step === 'everything';
  return (
    <Modal
      open
      title={everything ? t('domains.delete_everything_title', { realm: realm.realmId }) : t('domains.delete_title', { realm: realm.realmId })}
      okText={everything ? t('domains.delete_everything_confirm', { count }) : t('domains.delete')}
      okButtonProps={{ danger: true, loading: remove.isPending, id: everything ? 'realm-delete-everything' : 'realm-delete-ok' }}
      cancelText={t('domains.cancel')}
      onOk={onOk}
      onCancel={close}
      destroyOnHidden
    >
      <p>{everything ? t('domains.delete_everything_content', { count }) : t('domains.delete_content')}</p>
    </Modal>
  );
}
