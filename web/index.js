// The demo page: the guide's "Do it" buttons change the lab's settings the way its controls
// do (lab.set), so the lesson instruments below follow. No state lives here.
import './components/attention-lesson.js';

const lab = document.getElementById('lab');
for (const button of document.querySelectorAll('.guide button[data-set]')) {
  button.addEventListener('click', () => {
    customElements.whenDefined('attention-lab').then(() => lab.set(JSON.parse(button.dataset.set)));
  });
}
