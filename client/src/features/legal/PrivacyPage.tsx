import { LegalDocument } from './LegalDocument.tsx';

export function PrivacyPage() {
  return <LegalDocument doc="privacy" />;
}
