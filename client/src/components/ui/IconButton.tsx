import type { ButtonHTMLAttributes } from 'react';
import { Icon, type IconName } from './Icon.tsx';

interface IconButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'children'> {
  icon: IconName;
  /** The accessible name; also the tooltip unless `title` says otherwise. */
  label: string;
  iconSize?: number;
}

/** A button that shows only an icon, named by its label and titled for a pointer's tooltip. */
export function IconButton({ icon, label, iconSize, className, title, ...button }: IconButtonProps) {
  return (
    <button
      type="button"
      {...button}
      className={className ? `icon-button ${className}` : 'icon-button'}
      aria-label={label}
      title={title ?? label}
    >
      <Icon name={icon} size={iconSize} />
    </button>
  );
}
