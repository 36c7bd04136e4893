/*
 * The help center's one script (server/site/help.ts). Once the embedded widget is ready and shown, the words
 * "Chat with us" become a button that opens it through the loader's public API (window.parley.open()). Without
 * JavaScript, or while the widget hides itself (offline and set to hide), they stay plain words.
 */
document.addEventListener('parley.ready', () => {
  const parley = window.parley;
  if (!parley || typeof parley.open !== 'function' || !parley.isShown()) return;
  for (const words of document.querySelectorAll('[data-parley-chat]')) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'hc-chat__button';
    button.textContent = words.textContent;
    button.addEventListener('click', () => window.parley.open());
    words.replaceWith(button);
  }
});
