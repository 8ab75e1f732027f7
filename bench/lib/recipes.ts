import { shuffled } from "./inputs";

/**
 * 20-line recipes for POST /v1/analyze whose lines are all distinct (ingredient x preparation x quantity x
 * unit, in a seeded order), so that the analysed-lines cache never answers one: every line is analysed.
 * The ingredients repeat across lines, so the foods' caches (ranked foods by words, nutrient values) do warm.
 */

export const LINES_PER_RECIPE = 20;

const INGREDIENTS = [
  "onion", "garlic", "olive oil", "butter", "all-purpose flour", "sugar", "brown sugar", "salt", "black pepper", "egg",
  "milk", "heavy cream", "cheddar cheese", "parmesan cheese", "chicken breast", "ground beef", "bacon", "rice", "pasta", "potato",
  "carrot", "celery", "tomato", "tomato paste", "red bell pepper", "spinach", "broccoli", "mushrooms", "zucchini", "lemon juice",
  "honey", "maple syrup", "soy sauce", "vinegar", "oats", "walnuts", "almonds", "peanut butter", "raisins", "banana",
  "apple", "strawberries", "blueberries", "yogurt", "sour cream", "cream cheese", "cornstarch", "baking powder", "baking soda", "vanilla extract",
  "cinnamon", "cocoa powder", "chocolate chips", "coconut milk", "black beans", "chickpeas", "lentils", "green peas", "corn", "cabbage",
];
const PREPARATIONS = ["", "chopped", "diced", "sliced", "minced", "fresh", "grated", "cooked", "raw", "frozen"];
const QUANTITIES = ["1", "2", "3", "4", "5", "6", "8", "10", "12", "1/2", "1/4", "3/4", "1 1/2", "2 1/2", "1/3", "2/3", "15", "20", "25", "30", "40", "50", "75", "100", "125", "150", "200", "250", "7", "9", "1.5", "0.5", "2.25", "300", "400", "500"];
const UNITS = ["g", "cup", "tbsp", "tsp", "oz", "lb", "ml"];

/** `count` recipes (JSON bodies, one per line of the file bench/post.lua reads), no line in two of them. */
export function distinctRecipes(count: number): string[] {
  const lines: string[] = [];
  for (const ingredient of INGREDIENTS)
    for (const preparation of PREPARATIONS)
      for (const quantity of QUANTITIES) for (const unit of UNITS) lines.push(`${quantity} ${unit} ${preparation ? `${preparation} ` : ""}${ingredient}`);
  if (count * LINES_PER_RECIPE > lines.length) throw new Error(`only ${lines.length} distinct lines for ${count} recipes`);
  const order = shuffled(lines, 3020);
  return Array.from({ length: count }, (_, i) => JSON.stringify({ lines: order.slice(i * LINES_PER_RECIPE, (i + 1) * LINES_PER_RECIPE) }));
}
