/** Every query of the device CA starts with this key: a change to keys, certificates or the CA invalidates them all (counts and records move together). */
export const pkiKey = ['pki'] as const;
