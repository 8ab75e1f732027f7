/**
 * A small development set of recipe lines as cooks write them (a chocolate chip cookie, a chili, a chicken
 * and rice soup, a pasta bake), each with the SR28 foods a cook would accept and the grams SR28's portions
 * of the first give by decisions §16. It is this engineer's own, used while tuning the matcher: the
 * independent evaluation set is someone else's. accuracy.ts prints how the analysis does on it;
 * dev-set.test.ts keeps it from getting worse.
 */
export interface DevLine {
  readonly line: string;
  /** Foods a cook would accept, the one whose portions give `grams` first. */
  readonly foods: readonly string[];
  /** What SR28's portions of the first food give for the line. */
  readonly grams: number;
}

export const DEV_SET: readonly DevLine[] = [
  { line: "2 1/4 cups all-purpose flour", foods: ["20081", "20481"], grams: 281.25 }, // cup 125
  { line: "1 teaspoon baking soda", foods: ["18372"], grams: 4.6 },
  { line: "1 teaspoon salt", foods: ["02047"], grams: 6 },
  { line: "1 cup (2 sticks) butter, softened", foods: ["01001", "01145"], grams: 227 },
  { line: "3/4 cup granulated sugar", foods: ["19335"], grams: 150 },
  { line: "3/4 cup packed brown sugar", foods: ["19334"], grams: 165 }, // cup packed 220
  { line: "1 teaspoon vanilla extract", foods: ["02050"], grams: 4.2 },
  { line: "2 large eggs", foods: ["01123"], grams: 100 },
  { line: "2 cups semi-sweet chocolate chips", foods: ["19080", "19081"], grams: 364 }, // cup large chips 182
  { line: "1 pound lean ground beef", foods: ["23472", "23572", "23562", "23567", "23557"], grams: 453.59 },
  { line: "1 onion, chopped", foods: ["11282"], grams: 110 }, // medium
  { line: "2 cloves garlic, crushed", foods: ["11215"], grams: 6 },
  { line: "1 (28 ounce) can crushed tomatoes", foods: ["11531", "11693", "11533"], grams: 793.79 },
  { line: "2 tablespoons chili powder", foods: ["02009"], grams: 16 },
  { line: "1 teaspoon ground cumin", foods: ["02014"], grams: 2.1 },
  { line: "1 (15 ounce) can kidney beans, drained", foods: ["16029", "16033", "16030"], grams: 425.24 },
  { line: "1/2 teaspoon dried oregano", foods: ["02027"], grams: 0.5 },
  { line: "1 green bell pepper, diced", foods: ["11333"], grams: 119 },
  { line: "2 cups shredded Cheddar cheese", foods: ["01009"], grams: 226 },
  { line: "1/4 cup extra virgin olive oil", foods: ["04053"], grams: 54 },
  { line: "1 lemon, juiced", foods: ["09150", "09152"], grams: 58 },
  { line: "2 tablespoons chopped fresh parsley", foods: ["11297"], grams: 7.6 },
  { line: "1 cup uncooked long-grain white rice", foods: ["20044", "20444"], grams: 185 },
  { line: "2 cups water", foods: ["14411", "14555"], grams: 473.2 },
  { line: "1 tablespoon soy sauce", foods: ["16123", "16124"], grams: 16 },
  { line: "1 teaspoon sesame oil", foods: ["04058"], grams: 4.5 },
  { line: "1 cup frozen green peas, thawed", foods: ["11312"], grams: 134 },
  { line: "3 carrots, peeled and sliced", foods: ["11124"], grams: 183 }, // medium 61
  { line: "2 potatoes, cubed", foods: ["11352", "11362"], grams: 426 }, // potato medium 213
  { line: "1 quart chicken broth", foods: ["06194", "06970", "06172"], grams: 996 }, // cup 249
  { line: "1/2 cup heavy whipping cream", foods: ["01053"], grams: 119 }, // cup, fluid 238
  { line: "8 ounces cream cheese, softened", foods: ["01017"], grams: 226.8 },
  { line: "1 cup sour cream", foods: ["01056"], grams: 230 },
  { line: "1/2 cup grated Parmesan cheese", foods: ["01032"], grams: 50 },
  { line: "1 pound spaghetti", foods: ["20120"], grams: 453.59 },
  { line: "2 tablespoons honey", foods: ["19296"], grams: 42 },
  { line: "1 ripe avocado", foods: ["09037", "09038"], grams: 201 },
  { line: "1 cup milk", foods: ["01077", "01211"], grams: 244 },
  { line: "6 slices bacon", foods: ["10123"], grams: 168 }, // slice raw 28
  { line: "1/4 teaspoon ground nutmeg", foods: ["02025"], grams: 0.55 },
  { line: "1 tablespoon Dijon mustard", foods: ["02046"], grams: 15 },
  { line: "2 cups fresh spinach leaves", foods: ["11457"], grams: 60 },
  { line: "1 cup blueberries", foods: ["09050"], grams: 148 },
  { line: "salt and pepper to taste", foods: ["02047"], grams: 0 },
  // A British sponge, a mince and a curry: the kitchen words of UK and international recipes.
  { line: "225g self-raising flour", foods: ["20082"], grams: 225 },
  { line: "225g caster sugar", foods: ["19335"], grams: 225 },
  { line: "100g icing sugar, sifted", foods: ["19336"], grams: 100 },
  { line: "150ml double cream", foods: ["01053"], grams: 150.89 }, // cup, fluid 238
  { line: "a knob of butter", foods: ["01001", "01145"], grams: 0 },
  { line: "500g beef mince", foods: ["23572", "23472", "23562", "23567", "23557"], grams: 500 },
  { line: "1 tbsp tomato purée", foods: ["11546"], grams: 16 },
  { line: "4 spring onions, finely sliced", foods: ["11291"], grams: 60 }, // medium 15
  { line: "1 courgette, grated", foods: ["11477"], grams: 196 }, // medium
  { line: "1 red capsicum, diced", foods: ["11821"], grams: 119 }, // medium
  { line: "2 tbsp ghee", foods: ["01003"], grams: 25.6 }, // tbsp 12.8
  { line: "2 tsp ground coriander", foods: ["02013"], grams: 3.6 }, // tsp 1.8
  { line: "1 tsp smoked paprika", foods: ["02028"], grams: 2.3 },
  { line: "200g cooked peeled prawns", foods: ["15271", "15270"], grams: 200 },
  { line: "a handful of fresh coriander, chopped", foods: ["11165"], grams: 0 },
  { line: "100g rocket", foods: ["11959"], grams: 100 },
  { line: "1 tsp bicarbonate of soda", foods: ["18372"], grams: 4.6 },
  // A dal and a risotto, as Indian and Italian home cooks write them in English.
  { line: "250g dried red lentils", foods: ["16144"], grams: 250 },
  { line: "1 tsp turmeric powder", foods: ["02043"], grams: 3 },
  { line: "1 tsp cumin seeds", foods: ["02014"], grams: 2.1 },
  { line: "1/2 tsp ginger powder", foods: ["02021"], grams: 0.9 },
  { line: "1 large onion, finely chopped", foods: ["11282"], grams: 150 },
  { line: "2 tbsp ghee or oil", foods: ["01003"], grams: 25.6 },
  { line: "a large handful of fresh spinach", foods: ["11457"], grams: 0 },
  { line: "300g arborio rice", foods: ["20050", "20450"], grams: 300 },
  { line: "1 litre hot vegetable stock", foods: ["06700"], grams: 934.11 }, // cup 221
  { line: "a small knob of butter", foods: ["01001", "01145"], grams: 0 },
  { line: "2 tbsp plain flour", foods: ["20081"], grams: 15.63 }, // cup 125
  { line: "100g sultanas", foods: ["09297"], grams: 100 },
];
