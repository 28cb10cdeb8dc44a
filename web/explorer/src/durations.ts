/** How long something lasts, as the Explorer writes it: a token's time left, how far the server's clock was moved. */

/** `3 d 4 h`, `1 h 59 min`, `4 min 05 s`, `12 s`. */
export function formatDuration(milliseconds: number): string {
  const seconds = Math.ceil(milliseconds / 1000);
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes} min`;
  if (minutes > 0) return `${minutes} min ${String(seconds % 60).padStart(2, '0')} s`;
  return `${seconds} s`;
}
