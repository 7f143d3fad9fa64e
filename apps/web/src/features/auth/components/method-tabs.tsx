/** The method switcher of the public screens (password / SMS / email…), plain HTML tabs. */
import { useState, type ReactNode } from 'react';

export interface Method {
  key: string;
  label: string;
  body: ReactNode;
}

export function MethodTabs({ methods, empty }: { methods: Method[]; empty: string }) {
  const [active, setActive] = useState<string | undefined>();
  if (methods.length === 0) return <div className="plain-alert plain-alert--info">{empty}</div>;
  const current = methods.find((m) => m.key === active) ?? methods[0]!;
  return (
    <>
      {methods.length > 1 && (
        <div className="login-card__methods" role="tablist">
          {methods.map((m) => (
            <button
              key={m.key}
              type="button"
              role="tab"
              className="method-tab"
              aria-selected={m.key === current.key}
              onClick={() => setActive(m.key)}
              data-testid={`method-${m.key}`}
            >
              {m.label}
            </button>
          ))}
        </div>
      )}
      <div role="tabpanel">{current.body}</div>
    </>
  );
}
