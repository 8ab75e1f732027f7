/**
 * The food a cook means by the most common bare names, where SR28 has many foods of that name and the rules
 * of match.ts alone would pick another (they know words, not kitchens: "milk" could as well be a sheep's,
 * "rice" glutinous). Keyed by what the matcher reads of a line: its states then its food words, as keys
 * after synonyms ("cooked rice", "all purpose flour"). test/analysis/default-foods.test.ts checks that each
 * food exists and has the state its key names.
 */
export const DEFAULT_FOODS: Readonly<Record<string, string>> = {
  milk: "01077", // Milk, whole, 3.25% milkfat, with added vitamin D
  "whole milk": "01077",
  "2 milk": "01079", // Milk, reduced fat, fluid, 2% milkfat, with added vitamin A and vitamin D
  "skim milk": "01085", // Milk, nonfat, fluid, with added vitamin A and vitamin D (fat free or skim)
  "nonfat milk": "01085",
  "evaporated milk": "01096", // Milk, canned, evaporated, with added vitamin D and without added vitamin A
  cream: "01053", // Cream, fluid, heavy whipping
  flour: "20081", // Wheat flour, white, all-purpose, enriched, bleached
  "all purpose flour": "20081",
  "white flour": "20081",
  "plain flour": "20081",
  "plain white flour": "20081",
  "self rising flour": "20082", // Wheat flour, white, all-purpose, self-rising, enriched
  "golden syrup": "19362", // Syrups, table blends, corn, refiner, and sugar: the nearest to a refiner's syrup
  "reduced fat milk": "01079",
  "baking powder": "18369", // Leavening agents, baking powder, double-acting, sodium aluminum sulfate
  pepper: "02030", // Spices, pepper, black
  oil: "04044", // Oil, soybean, salad or cooking
  "vegetable oil": "04044",
  cheese: "01009", // Cheese, cheddar
  mozzarella: "01026", // Cheese, mozzarella, whole milk
  "mozzarella cheese": "01026",
  "cottage cheese": "01012", // Cheese, cottage, creamed, large or small curd
  "goat cheese": "01159", // Cheese, goat, soft type
  yogurt: "01116", // Yogurt, plain, whole milk
  "plain yogurt": "01116",
  "chicken broth": "06194", // Soup, chicken broth, ready-to-serve
  "beef broth": "06008", // Soup, beef broth or bouillon canned, ready-to-serve
  "vegetable broth": "06700", // Soup, vegetable broth, ready to serve
  "canned green chili": "11329", // Peppers, hot chili, green, canned, pods, excluding seeds, solids and liquids
  "green chili": "11670", // Peppers, hot chili, green, raw
  "soy sauce": "16123", // Soy sauce made from soy and wheat (shoyu)
  mayonnaise: "04025", // Salad dressing, mayonnaise, regular
  "tomato sauce": "11549", // Tomato products, canned, sauce
  "hot sauce": "06168", // Sauce, ready-to-serve, pepper or hot
  salsa: "06164", // Sauce, salsa, ready-to-serve
  potato: "11352", // Potatoes, flesh and skin, raw
  tomato: "11529", // Tomatoes, red, ripe, raw, year round average
  "cherry tomato": "11529",
  "canned tomato": "11531", // Tomatoes, red, ripe, canned, packed in tomato juice
  "roma tomato": "11529",
  "plum tomato": "11529",
  cucumber: "11205", // Cucumber, with peel, raw
  zucchini: "11477", // Squash, summer, zucchini, includes skin, raw
  corn: "11167", // Corn, sweet, yellow, raw
  "corn kernel": "11167",
  "canned corn": "11172", // Corn, sweet, yellow, canned, whole kernel, drained solids
  "frozen corn": "11178", // Corn, sweet, yellow, frozen, kernels cut off cob, unprepared
  "frozen corn kernel": "11178",
  olive: "09193", // Olives, ripe, canned (small-extra large)
  "black olive": "09193",
  cilantro: "11165", // Coriander (cilantro) leaves, raw
  ginger: "11216", // Ginger root, raw
  buttermilk: "01088", // Milk, buttermilk, fluid, cultured, lowfat
  cashew: "12085", // Nuts, cashew nuts, dry roasted, without salt added
  "peanut butter": "16098", // Peanut butter, smooth style, with salt
  "half and half": "01049", // Cream, fluid, half and half
  lettuce: "11253", // Lettuce, green leaf, raw
  grape: "09132", // Grapes, red or green (European type, such as Thompson seedless), raw
  raisin: "09298", // Raisins, seedless
  peanut: "16087", // Peanuts, all types, raw
  broadbean: "11088", // Broadbeans, immature seeds, raw: the green beans, not the dried ones
  dill: "02045", // Dill weed, fresh
  "apple juice": "09016", // Apple juice, canned or bottled, unsweetened, without added ascorbic acid
  rice: "20044", // Rice, white, long-grain, regular, raw, enriched
  "white rice": "20044",
  "cooked rice": "20045", // Rice, white, long-grain, regular, enriched, cooked
  "cooked white rice": "20045",
  spaghetti: "20120", // Pasta, dry, enriched
  pasta: "20120",
  bread: "18069", // Bread, white, commercially prepared (includes soft bread crumbs)
  "white bread": "18069",
  bacon: "10123", // Pork, cured, bacon, unprepared
  ham: "07029", // Ham, sliced, regular (approximately 11% fat)
  sausage: "07063", // Pork sausage, link/patty, unprepared
  "italian sausage": "07036", // Sausage, Italian, pork, raw
  chicken: "05011", // Chicken, broilers or fryers, meat only, raw
  "chicken breast": "05062", // Chicken, broiler or fryers, breast, skinless, boneless, meat only, raw
  "chicken thigh": "05096", // Chicken, broilers or fryers, dark meat, thigh, meat only, raw
  "ground beef": "23572", // Beef, ground, 80% lean meat / 20% fat, raw
  tuna: "15121", // Fish, tuna, light, canned in water, drained solids
  salmon: "15236", // Fish, salmon, Atlantic, farmed, raw
  tofu: "16426", // Tofu, raw, firm, prepared with calcium sulfate
  margarine: "04610", // Margarine, regular, 80% fat, composite, stick, with salt
  water: "14411", // Beverages, water, tap, drinking
  "white wine": "14106", // Alcoholic beverage, wine, table, white
  "red wine": "14096", // Alcoholic beverage, wine, table, red
};
