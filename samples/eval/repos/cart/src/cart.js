/** A shopping cart: items are { price, quantity }. */

export function total(items) {
  return items.reduce((sum, item) => sum + item.price, 0);
}

export function applyDiscount(amount, percent) {
  return amount - amount * percent;
}
