/**
 * The pages a person lands on: the portal root `/` and `/sharing/rest?f=html`. Signed out, a sign-in form
 * (static/signin.js posts it to generateToken and comes back with the token); signed in, links to the
 * person's content and to the services directory.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../env.js';
import { html, pageLink, rootPath, sendHtml } from './page.js';

export function portalHomePage(c: Context<AppEnv>) {
  const user = c.get('user');
  const portalName = c.get('deps').portalName;
  const services = html`<a href="${pageLink(c, rootPath(c, '/rest/services'))}">Services directory</a>`;
  if (user) {
    return sendHtml(c, {
      title: portalName,
      body: html`<p>Signed in as <strong id="signed-in-user">${user.username}</strong> (${user.role}).</p>
<ul>
<li><a href="${pageLink(c, rootPath(c, `/sharing/rest/content/users/${encodeURIComponent(user.username)}`))}">My content</a></li>
<li>${services}</li>
<li><a href="${pageLink(c, rootPath(c, '/sharing/rest/community/self'))}">My profile</a></li>
</ul>
<p><a href="${rootPath(c, '/')}">Sign out</a></p>`,
    });
  }
  return sendHtml(c, {
    title: portalName,
    scripts: ['signin.js'],
    body: html`<form id="signin" method="post" action="${rootPath(c, '/sharing/rest/generateToken')}" data-home="${rootPath(c, '/')}">
<h2>Sign in</h2>
<input type="hidden" name="f" value="json">
<label>Username <input name="username" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button>
<p id="signin-error" class="error" role="alert"></p>
</form>
<p>Or browse the public ${services}.</p>`,
  });
}
