import { ReportPadLossButton } from '../features/incidents/report-loss-buttons.tsx';
import { PadsPage } from '../features/pads/pads-page.tsx';

/** /pads composed from two features: Inventories with its Pad Details, and Report a loss (Incidents) in those details. */
export function PadsScreen() {
  return <PadsPage padActions={(pad) => <ReportPadLossButton pad={pad} />} />;
}
