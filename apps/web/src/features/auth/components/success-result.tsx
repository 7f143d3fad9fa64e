/** A success result of the public pages (antd's Result look, in plain HTML): a check mark and the text. */
export function SuccessResult({ text }: { text: string }) {
  return (
    <div className="plain-success" role="status" data-testid="register-result-text">
      <svg className="plain-success__icon" viewBox="0 0 24 24" width="48" height="48" aria-hidden="true" focusable="false">
        <circle cx="12" cy="12" r="11" fill="#52c41a" />
        <path d="M7 12.5l3.2 3.2L17.2 8.7" fill="none" stroke="#fff" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <p className="plain-success__text">{text}</p>
    </div>
  );
}
