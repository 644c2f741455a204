import { LegalDocument } from './LegalDocument.tsx';

export function TermsPage() {
  return <LegalDocument doc="terms" />;
}
