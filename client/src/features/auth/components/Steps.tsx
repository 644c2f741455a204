/** A numbered step indicator; the current step carries aria-current="step". */
export function Steps({ labels, current, label }: { labels: string[]; current: number; label: string }) {
  return (
    <ol className="steps" aria-label={label}>
      {labels.map((text, index) => (
        <li
          key={text}
          className={`steps__item ${index < current ? 'steps__item--done' : ''} ${index === current ? 'steps__item--current' : ''}`}
          aria-current={index === current ? 'step' : undefined}
        >
          <span className="steps__number" aria-hidden="true">
            {index + 1}
          </span>
          <span className="steps__label">{text}</span>
        </li>
      ))}
    </ol>
  );
}
