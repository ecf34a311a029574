// Signs in through generateToken (a token bound to this site as its referer) and returns to the
// portal's home page with the token, as the services directory passes tokens in its links.
const form = document.getElementById('signin');
const problem = document.getElementById('signin-error');
form?.addEventListener('submit', async (event) => {
  event.preventDefault();
  problem.textContent = '';
  const body = new URLSearchParams({
    username: form.elements.username.value,
    password: form.elements.password.value,
    client: 'referer',
    referer: window.location.origin,
    expiration: '120',
    f: 'json',
  });
  try {
    const res = await fetch(form.action, { method: 'POST', body });
    const answer = await res.json();
    if (!answer.token) {
      problem.textContent = answer.error?.message ?? 'Sign-in failed.';
      return;
    }
    const home = new URL(form.dataset.home, window.location.href);
    home.searchParams.set('f', 'html');
    home.searchParams.set('token', answer.token);
    window.location.assign(home.toString());
  } catch {
    problem.textContent = 'The portal could not be reached.';
  }
});
