/** The few DOM helpers the Explorer's panels share. */

type Child = Node | string | false | null | undefined;

/** An element with attributes (`class`, `href`, `data-…`, `aria-…`) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined) element.setAttribute(name, value);
  }
  for (const child of children) {
    if (child !== false && child !== null && child !== undefined) element.append(child);
  }
  return element;
}

/** An element the page must have; a missing one is a bug in the page, reported at once. */
export function byId<T extends HTMLElement>(id: string, kind: new () => T): T {
  const element = document.getElementById(id);
  if (!(element instanceof kind)) throw new Error(`The page lacks #${id}`);
  return element;
}

/** Copies text, falling back to a selection where the clipboard API is unavailable (plain http). */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h('textarea', { class: 'offscreen', 'aria-hidden': 'true' });
    area.value = text;
    document.body.append(area);
    area.select();
    const copied = document.execCommand('copy');
    area.remove();
    return copied;
  }
}

/** Shows "Copied" on a button for a moment. */
export async function copyWithFeedback(button: HTMLButtonElement, text: string): Promise<void> {
  const label = button.textContent;
  button.textContent = (await copyText(text)) ? 'Copied' : 'Copy failed';
  setTimeout(() => (button.textContent = label), 1500);
}
