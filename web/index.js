// The demo page: the lesson instruments (<attention-lesson>) are loaded once the lab has drawn
// its first result — never in the way of the first view — and the guide's "Do it" buttons
// change the lab's settings the way its controls do (lab.set). No state lives here.
const lab = document.getElementById('lab');

customElements
  .whenDefined('attention-lab')
  .then(() => lab.ready)
  .then(() => new Promise((painted) => requestAnimationFrame(() => setTimeout(painted))))
  .then(() => import('./components/lesson/attention-lesson.js'));

for (const button of document.querySelectorAll('.guide button[data-set]')) {
  button.addEventListener('click', () => {
    customElements.whenDefined('attention-lab').then(() => lab.set(JSON.parse(button.dataset.set)));
  });
}
