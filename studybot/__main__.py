from studybot.launch import main

main()
