/** Placeholder while the page is built on a helper branch; replaced before this lands. */
export function CreateOrder() {
  return <p>CreateOrder</p>;
}
