import { StageAvatar } from '../features/avatar/StageAvatar.tsx';
import { useCustomAvatarName } from '../features/avatar/use-avatar-name.ts';
import { AvatarSelectorModal } from '../features/avatar/selector/AvatarSelector.tsx';
import { ChatPage } from '../features/chat/ChatPage.tsx';

/** /chat: the chat screen with the avatar feature's 3D stage and selector composed in. */
export function ChatRoute() {
  const customName = useCustomAvatarName();
  return (
    <ChatPage
      avatarName={customName}
      renderAvatar={(drive) => <StageAvatar {...drive} />}
      renderAvatarPicker={(onClose) => <AvatarSelectorModal onClose={onClose} />}
    />
  );
}
