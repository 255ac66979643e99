// The browser's events only tell the page to ask its server what is true now.
const status = document.querySelector('#server');

async function showServerState() {
  const answer = await fetch('/me', { credentials: 'same-origin' });
  const me = await answer.json();
  status.replaceChildren();
  const line = document.createElement('p');
  line.textContent = me.loggedIn
    ? `Logged in on the server as ${me.account.name} ${me.account.surname} (${me.account.country}).`
    : 'The server has not logged you in.';
  status.append(line);
  if (me.files.length) {
    const list = document.createElement('ul');
    me.files.forEach((file, index) => {
      const item = document.createElement('li');
      const link = document.createElement('a');
      link.href = `/files/${index}`;
      link.textContent = `${file.name} (${file.size} bytes, signed by ${file.signer})`;
      item.append(link);
      list.append(item);
    });
    status.append(list);
  }
  status.dataset.state = me.loggedIn ? 'logged-in' : 'anonymous';
}

for (const name of ['esign-authenticated', 'esign-signed']) document.addEventListener(name, () => void showServerState());
void showServerState();
