import { ProfilePage } from '../features/accounts/profile-page.tsx';
import { NotificationSettingsPanel } from '../features/notifications/notification-settings-panel.tsx';

/** /user-profile composed from two features: the user's own details, and which alerts reach them by e-mail (Notifications). */
export function ProfileScreen() {
  return <ProfilePage below={<NotificationSettingsPanel />} />;
}
