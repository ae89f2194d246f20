package lang

import (
	"strings"
	"testing"
)

func TestGuess(t *testing.T) {
	for text, want := range map[string]string{
		"The council met on Monday and the members discussed the budget of the coming year, which has been a matter of dispute for months, and they agreed that it would be presented to the public.": "en",
		"Der Rat hat am Montag über den Haushalt des kommenden Jahres beraten, der seit Monaten umstritten ist, und die Mitglieder sind sich einig, dass er nicht mehr verschoben werden kann.":       "de",
		"Le conseil s'est réuni lundi et les membres ont discuté du budget de l'année prochaine, qui est contesté depuis des mois, et ils sont d'accord pour que ce budget soit présenté au public.":  "fr",
		"El consejo se reunió el lunes y los miembros discutieron el presupuesto del próximo año, que ha sido objeto de disputa durante meses, y acordaron que se presentará al público.":             "es",
		"Too short.": "",
		// Function words Russian and Ukrainian share alone (в, на, по, за):
		// the letters decide.
		strings.Repeat("Москва - столица России, крупнейший по численности населения город страны. Город расположен на реке Москве в центре Восточно-Европейской равнины. ", 2):           "ru",
		strings.Repeat("Київ - столиця України, найбільше за кількістю населення місто країни. Місто розташоване на річці Дніпро в центрі Східної Європи. ", 2):                           "uk",
		"Совет собрался в понедельник, и его члены обсудили бюджет на следующий год, который уже несколько месяцев вызывает споры, и они согласились, что его нельзя больше откладывать.": "ru",
		"Съветът се събра в понеделник и членовете му обсъдиха бюджета за следващата година, който от месеци е предмет на спор, и се съгласиха, че той не може да бъде отложен.":          "",
		"Савет се састао у понедељак и његови чланови су разговарали о буџету за наредну годину, који је већ месецима предмет спора, и сложили су се да се он не може одлагати.":          "",
		"Рада зібралася в понеділок, і її члени обговорили бюджет на наступний рік, який вже кілька місяців викликає суперечки, але вони погодилися, що його не можна відкладати.":        "uk",
		"評議会は月曜日に会合を開き、委員たちは何か月も議論が続いている来年度の予算について話し合い、これ以上延期できないことで合意した。":                                                                                                                "ja",
		"理事会星期一举行会议，成员们讨论了几个月来一直存在争议的明年预算，并同意不能再推迟。":                                                                                                                                      "zh",
		"이사회는 월요일에 모여 몇 달 동안 논란이 되어 온 내년 예산을 논의했고 더 이상 미룰 수 없다는 데 동의했다.":                                                                                                                  "ko",
		"Το συμβούλιο συνεδρίασε τη Δευτέρα και τα μέλη συζήτησαν τον προϋπολογισμό του επόμενου έτους.":                                                                                  "el",
		"اجتمع المجلس يوم الاثنين وناقش الأعضاء ميزانية العام المقبل التي كانت موضع خلاف منذ أشهر، وقد اتفقوا على أن هذا الأمر لا يمكن أن يؤجل بعد ذلك في هذه المرة.":                     "ar",
		"شورا روز دوشنبه تشکیل جلسه داد و اعضا در باره بودجه سال آینده که از ماه\u200cها پیش محل اختلاف بود بحث کردند و توافق کردند که این بودجه نباید به تعویق بیفتد.":                   "fa",
	} {
		if got := Guess(text); got != want {
			t.Errorf("Guess(%.30q) = %q, want %q", text, got, want)
		}
	}
}

// TestISO639_3: every code Guess can return has an ISO 639-3 code.
func TestISO639_3(t *testing.T) {
	codes := map[string]bool{"zh": true}
	for code := range stopWords {
		codes[code] = true
	}
	for _, s := range scripts {
		codes[s.lang] = true
	}
	for code := range codes {
		if len(ISO639_3(code)) != 3 {
			t.Errorf("ISO639_3(%q) = %q", code, ISO639_3(code))
		}
	}
	if got := ISO639_3("xx"); got != "" {
		t.Errorf("ISO639_3(\"xx\") = %q, want \"\"", got)
	}
}
