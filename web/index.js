// The demo page: the lesson instruments (<attention-lesson>) are loaded once the lab has drawn
// its first result — never in the way of the first view —, the training experiment when its
// section comes near, and the guide's "Do it" buttons change the lab's settings the way its
// controls do (lab.set). No state lives here.
const lab = document.getElementById('lab');

customElements
  .whenDefined('attention-lab')
  .then(() => lab.ready)
  .then(() => new Promise((painted) => requestAnimationFrame(() => setTimeout(painted))))
  .then(() => import('./components/lesson/attention-lesson.js'));

// The training experiment starts its own worker and engine: loaded only when its section comes
// near the viewport, never in the way of the lab.
const training = document.getElementById('training');
const nearTraining = new IntersectionObserver(
  (entries) => {
    if (!entries.some((entry) => entry.isIntersecting)) return;
    nearTraining.disconnect();
    import('./components/lesson/training-experiment.js');
  },
  { rootMargin: '400px 0px' },
);
nearTraining.observe(training);

for (const button of document.querySelectorAll('.guide button[data-set]')) {
  button.addEventListener('click', () => {
    customElements.whenDefined('attention-lab').then(() => lab.set(JSON.parse(button.dataset.set)));
  });
}
