import { Icon } from './Icon.tsx';

/**
 * A numbered step indicator; the current step carries aria-current="step". With `checkDone`,
 * finished steps show a check mark instead of their number.
 */
export function Steps({
  labels,
  current,
  label,
  checkDone = false,
}: {
  labels: string[];
  current: number;
  label: string;
  checkDone?: boolean;
}) {
  return (
    <ol className="steps" aria-label={label}>
      {labels.map((text, index) => (
        <li
          key={text}
          className={`steps__item ${index < current ? 'steps__item--done' : ''} ${index === current ? 'steps__item--current' : ''}`}
          aria-current={index === current ? 'step' : undefined}
        >
          <span className="steps__number" aria-hidden="true">
            {checkDone && index < current ? <Icon name="check" size={14} /> : index + 1}
          </span>
          <span className="steps__label">{text}</span>
        </li>
      ))}
    </ol>
  );
}
