import { isIP } from 'node:net';

/**
 * The key a network address is counted under: an IPv4 address as it is (an IPv4-mapped IPv6 one
 * too), an IPv6 address by its /64 (one household or phone holds a whole /64, so counting single
 * addresses would count nothing), anything else the host's own key, as given.
 */
export function addressKey(address: string): string {
  const plain = address.trim().toLowerCase().replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(plain)?.[1];
  if (mapped && isIP(mapped) === 4) return mapped;
  if (isIP(plain) === 4) return plain;
  if (isIP(plain) !== 6) return address.trim();
  const [head = '', tail] = plain.split('::');
  const first = head ? head.split(':') : [];
  const last = tail === undefined ? [] : tail ? tail.split(':') : [];
  // an IPv4 tail (::1.2.3.4) stands for two groups
  const lastGroups = last.at(-1)?.includes('.') ? last.length + 1 : last.length;
  const groups = tail === undefined ? first : [...first, ...Array<string>(8 - first.length - lastGroups).fill('0'), ...last];
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
