/** Quantities as LimitRanger and ResourceQuota print them: canonical text, sums, resource lists. */
import { addQuantities, canonicalQuantity, formatQuantity, printResourceList, quantityOf } from './resource-quantities.js';

test('canonical text: decimal suffixes, binary kept binary, milli for fractions', () => {
  expect(canonicalQuantity('1000m')).toBe('1');
  expect(canonicalQuantity('1500m')).toBe('1500m');
  expect(canonicalQuantity('0.5')).toBe('500m');
  expect(canonicalQuantity('2000')).toBe('2k');
  expect(canonicalQuantity('1024Mi')).toBe('1Gi');
  expect(canonicalQuantity('1536Mi')).toBe('1536Mi');
  expect(canonicalQuantity(3)).toBe('3');
  expect(canonicalQuantity('0')).toBe('0');
});

test('sums keep the binary format of memory', () => {
  expect(formatQuantity(addQuantities(quantityOf('128Mi')!, quantityOf('128Mi')!))).toBe('256Mi');
  expect(formatQuantity(addQuantities(quantityOf('250m')!, quantityOf('750m')!))).toBe('1');
});

test('resource lists print sorted as key=value', () => {
  expect(printResourceList({ pods: quantityOf('1')!, 'limits.cpu': quantityOf('500m')! })).toBe('limits.cpu=500m,pods=1');
});
